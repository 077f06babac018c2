import { describe, expect, it } from 'vitest';
import {
  encodeDataReply,
  encodeDataRequest,
  encodeResult,
  encodeSizeReply,
  encodeSubmit,
  ERROR_INVALID,
  MAX_HEADER,
  ERROR_REQUIRED,
  ERROR_SUBMIT,
  parseReply,
  parseRequest,
} from '../../shared/offset/protocol.ts';

const b = (s: string) => new TextEncoder().encode(s);
const N = 10_000;

describe('offset protocol: requests', () => {
  it('reads SendSize, with and without Reset', () => {
    expect(parseRequest(b('SendSize\n\n'), N)).toEqual({ kind: 'size', reset: false });
    expect(parseRequest(b('SendSize\nReset\n\n'), N)).toEqual({ kind: 'size', reset: true });
  });

  it('reads a data request and ignores unknown lines', () => {
    expect(parseRequest(b('Offset: 1448\nNumBytes: 1448\n\n'), N)).toEqual({ kind: 'data', offset: 1448, numBytes: 1448 });
    expect(parseRequest(b('X-Note: hi\nNumBytes: 10\nOffset: 0\n\n'), N)).toEqual({ kind: 'data', offset: 0, numBytes: 10 });
    expect(parseRequest(encodeDataRequest(5, 6), N)).toEqual({ kind: 'data', offset: 5, numBytes: 6 });
  });

  it('answers a missing, negative or non-numeric field, n > 1448 or o ≥ N with the required-info error', () => {
    for (const bad of [
      'Offset: 0\n\n',
      'NumBytes: 5\n\n',
      'Offset: -1\nNumBytes: 5\n\n',
      'Offset: x\nNumBytes: 5\n\n',
      'Offset: 0\nNumBytes: 1449\n\n',
      `Offset: ${N}\nNumBytes: 1\n\n`,
      'offset: 0\nnumbytes: 5\n\n',
      'Offset:0\nNumBytes: 5\n\n',
      '\n',
    ]) {
      expect(parseRequest(b(bad), N), JSON.stringify(bad)).toEqual({ kind: 'error', message: ERROR_REQUIRED });
    }
  });

  it('reads a Submit and refuses one without a name or a lowercase-hex MD5', () => {
    const md5 = '0123456789abcdef0123456789abcdef';
    expect(parseRequest(encodeSubmit('ann@team', md5), N)).toEqual({ kind: 'submit', id: 'ann@team', md5 });
    for (const bad of [`MD5: ${md5}\n\n`, 'Submit: ann@team\n\n', `Submit: ann@team\nMD5: ${md5.toUpperCase()}\n\n`, 'Submit: a\nMD5: abc\n\n']) {
      expect(parseRequest(b(bad), N)).toEqual({ kind: 'error', message: ERROR_SUBMIT });
    }
  });

  it('refuses bytes outside printable ASCII and a header with no empty line', () => {
    for (const bad of [new Uint8Array(0), b('SendSize\r\n\r\n'), b('Offset: 0\nNumBytes: 5\n'), new Uint8Array([0, 10, 10]), b('SendSize\t\n\n'), new Uint8Array(65_000).fill(0xff)]) {
      expect(parseRequest(bad, N)).toEqual({ kind: 'error', message: ERROR_INVALID });
    }
  });
});

describe('offset protocol: replies', () => {
  it('round-trips every reply', () => {
    expect(parseReply(encodeSizeReply(1234))).toEqual({ kind: 'size', size: 1234 });
    expect(parseReply(encodeResult(true, 2810, 3))).toEqual({ kind: 'result', result: true, time: 2810, penalty: 3 });
    const body = b('hello');
    const plain = parseReply(encodeDataReply(1448, body, false));
    expect(plain).toMatchObject({ kind: 'data', offset: 1448, numBytes: 5, squished: false });
    expect(new TextDecoder().decode((plain as { body: Uint8Array }).body)).toBe('hello');
    expect(new TextDecoder().decode(encodeDataReply(0, body, true))).toBe('Offset: 0\nNumBytes: 5\nSquished\n\nhello');
    expect(parseReply(encodeDataReply(0, body, true))).toMatchObject({ squished: true });
    expect(parseReply(b(`${ERROR_REQUIRED}\n\n`))).toEqual({ kind: 'error', message: ERROR_REQUIRED });
  });

  it('calls a body of the wrong length invalid', () => {
    expect(parseReply(b('Offset: 0\nNumBytes: 9\n\nabc'))).toMatchObject({ kind: 'invalid' });
  });
});

describe('offset protocol: oversize headers', () => {
  it('answers a header longer than MAX_HEADER with the invalid-header error, without reading the rest', () => {
    const lines = Buffer.from('x: y\n'.repeat(13_000) + '\n');
    expect(parseRequest(lines, 1000)).toEqual({ kind: 'error', message: ERROR_INVALID });
    const header = (fill: number) => Buffer.from(`Offset: 0\nNumBytes: 10\n${'z'.repeat(fill)}\n\n`);
    expect(header(MAX_HEADER - 25).length).toBe(MAX_HEADER);
    expect(parseRequest(header(MAX_HEADER - 25), 1000)).toEqual({ kind: 'data', offset: 0, numBytes: 10 });
    expect(parseRequest(header(MAX_HEADER - 24), 1000)).toEqual({ kind: 'error', message: ERROR_INVALID });
  });
});
