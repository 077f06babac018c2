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

describe('offset protocol: the course server’s reading of a header, to the byte', () => {
  it('answers with the course server’s three error lines, word for word', () => {
    expect([ERROR_REQUIRED, ERROR_SUBMIT, ERROR_INVALID]).toEqual(['ERROR: Required header info not received', 'ERROR: Team name or MD5 not received', 'ERROR: Invalid characters in header']);
  });

  it('takes every printable byte from space to ~, and no byte above', () => {
    expect(parseRequest(b('X: ~ !\nSendSize\n\n'), N)).toEqual({ kind: 'size', reset: false });
    expect(parseRequest(new Uint8Array([...b('SendSize'), 127, 10, 10]), N)).toEqual({ kind: 'error', message: ERROR_INVALID });
  });

  it('reads "Name: value" only with a name before the colon, and the first of a repeated field', () => {
    expect(parseRequest(b(': 5\nOffset: 7\nOffset: 9\nNumBytes: 10\n\n'), N)).toEqual({ kind: 'data', offset: 7, numBytes: 10 });
  });

  it('takes 1 to 15 digits, nothing else around them', () => {
    expect(parseRequest(b('Offset: 12\nNumBytes: 10\n\n'), N)).toEqual({ kind: 'data', offset: 12, numBytes: 10 });
    for (const o of ['x5', '5x', '1234567890123456', ' 5', '']) {
      expect(parseRequest(b(`Offset: ${o}\nNumBytes: 10\n\n`), N), o).toEqual({ kind: 'error', message: ERROR_REQUIRED });
      expect(parseRequest(b(`Offset: 0\nNumBytes: ${o}\n\n`), N), o).toEqual({ kind: 'error', message: ERROR_REQUIRED });
    }
  });

  it('wants a name that is not blank and an MD5 of exactly 32 lowercase hex digits', () => {
    const md5 = '0123456789abcdef0123456789abcdef';
    for (const bad of [`Submit:   \nMD5: ${md5}\n\n`, `Submit: a\nMD5: g${md5}\n\n`, `Submit: a\nMD5: ${md5}0\n\n`, `Submit: a\nMD5: ${md5.slice(1)}g\n\n`]) {
      expect(parseRequest(b(bad), N), bad).toEqual({ kind: 'error', message: ERROR_SUBMIT });
    }
    expect(parseRequest(b(`Submit:  a b \nMD5: ${md5}\n\n`), N)).toEqual({ kind: 'submit', id: ' a b ', md5 });
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

  it('calls a body of the wrong length, a bad Result or an unknown reply invalid, and says which', () => {
    expect(parseReply(b('Offset: 0\nNumBytes: 9\n\nabc'))).toEqual({ kind: 'invalid', why: 'NumBytes 9 but 3 bytes follow' });
    for (const bad of ['Result: maybe\nTime: 1\nPenalty: 0\n\n', 'Result: true\nTime: x\nPenalty: 0\n\n', 'Result: true\nTime: 1\nPenalty: x\n\n', 'Result: true\nTime: 1\n\n']) {
      expect(parseReply(b(bad)), bad).toEqual({ kind: 'invalid', why: 'bad Result' });
    }
    expect(parseReply(b('Result: false\nTime: 1\nPenalty: 0\n\n'))).toEqual({ kind: 'result', result: false, time: 1, penalty: 0 });
    expect(parseReply(b('Size: x\n\n'))).toEqual({ kind: 'invalid', why: 'bad Size "x"' });
    expect(parseReply(b('Hello\n\n'))).toEqual({ kind: 'invalid', why: 'unknown reply' });
    expect(parseReply(b('Size: 5\n'))).toEqual({ kind: 'invalid', why: 'no well-formed header' });
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
