/**
 * The offset server's wire format: text header lines ending in \n, an empty line, then raw bytes.
 * Keywords are case-sensitive and values follow "Keyword: ". Unknown lines are ignored.
 */
export const MAX_CHUNK = 1448;

export const ERROR_REQUIRED = 'ERROR: Required header info not received';
export const ERROR_SUBMIT = 'ERROR: Team name or MD5 not received';
export const ERROR_INVALID = 'ERROR: Invalid characters in header';

export type Request = { kind: 'size'; reset: boolean } | { kind: 'data'; offset: number; numBytes: number } | { kind: 'submit'; id: string; md5: string } | { kind: 'error'; message: string };

export type Reply =
  | { kind: 'size'; size: number }
  | { kind: 'data'; offset: number; numBytes: number; squished: boolean; body: Uint8Array }
  | { kind: 'result'; result: boolean; time: number; penalty: number }
  | { kind: 'error'; message: string }
  | { kind: 'invalid'; why: string };

/**
 * The longest header read. A real request's header is a few dozen bytes; past this the datagram is
 * answered with one ERROR without looking further, so a 64 KB datagram costs no more than a small one.
 */
export const MAX_HEADER = 1024;

const encoder = new TextEncoder();
const NL = 10;

const ascii = new TextDecoder('latin1');

/** Splits off the header: its lines and where the body starts, or null when a byte is not allowed or no empty line ends it within MAX_HEADER bytes. */
function splitHeader(bytes: Uint8Array): { lines: string[]; bodyStart: number } | null {
  const end = Math.min(bytes.length, MAX_HEADER);
  let lineStart = 0;
  for (let i = 0; i < end; i++) {
    const c = bytes[i];
    if (c === NL) {
      if (i === lineStart) {
        const lines = i === 0 ? [] : ascii.decode(bytes.subarray(0, i - 1)).split('\n');
        return { lines, bodyStart: i + 1 };
      }
      lineStart = i + 1;
    } else if (c < 32 || c > 126) {
      return null;
    }
  }
  return null;
}

function fields(lines: string[]): { flags: Set<string>; values: Map<string, string> } {
  const flags = new Set<string>();
  const values = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(': ');
    if (colon > 0) {
      const key = line.slice(0, colon);
      if (!values.has(key)) values.set(key, line.slice(colon + 2));
    } else flags.add(line);
  }
  return { flags, values };
}

const WHOLE = /^\d{1,15}$/;
const MD5_HEX = /^[0-9a-f]{32}$/;

/** Parses a client's datagram. `fileSize` bounds the offset. */
export function parseRequest(bytes: Uint8Array, fileSize: number): Request {
  const header = splitHeader(bytes);
  if (!header) return { kind: 'error', message: ERROR_INVALID };
  const { flags, values } = fields(header.lines);
  if (flags.has('SendSize')) return { kind: 'size', reset: flags.has('Reset') };
  if (values.has('Submit') || values.has('MD5')) {
    const id = values.get('Submit') ?? '';
    const md5 = values.get('MD5') ?? '';
    if (id.trim() === '' || !MD5_HEX.test(md5)) return { kind: 'error', message: ERROR_SUBMIT };
    return { kind: 'submit', id, md5 };
  }
  const o = values.get('Offset');
  const n = values.get('NumBytes');
  if (o === undefined || n === undefined || !WHOLE.test(o) || !WHOLE.test(n)) return { kind: 'error', message: ERROR_REQUIRED };
  const offset = Number(o);
  const numBytes = Number(n);
  if (numBytes > MAX_CHUNK || offset >= fileSize) return { kind: 'error', message: ERROR_REQUIRED };
  return { kind: 'data', offset, numBytes };
}

/** Parses a server's datagram, as a client sees it. */
export function parseReply(bytes: Uint8Array): Reply {
  const header = splitHeader(bytes);
  if (!header) return { kind: 'invalid', why: 'no well-formed header' };
  const first = header.lines[0] ?? '';
  if (first.startsWith('ERROR: ')) return { kind: 'error', message: first };
  const { flags, values } = fields(header.lines);
  const size = values.get('Size');
  if (size !== undefined) return WHOLE.test(size) ? { kind: 'size', size: Number(size) } : { kind: 'invalid', why: `bad Size "${size}"` };
  const result = values.get('Result');
  if (result !== undefined) {
    const time = Number(values.get('Time'));
    const penalty = Number(values.get('Penalty'));
    if ((result !== 'true' && result !== 'false') || !Number.isFinite(time) || !Number.isFinite(penalty)) return { kind: 'invalid', why: 'bad Result' };
    return { kind: 'result', result: result === 'true', time, penalty };
  }
  const o = values.get('Offset');
  const n = values.get('NumBytes');
  if (o !== undefined && n !== undefined && WHOLE.test(o) && WHOLE.test(n)) {
    const numBytes = Number(n);
    const body = bytes.subarray(header.bodyStart);
    if (body.length !== numBytes) return { kind: 'invalid', why: `NumBytes ${numBytes} but ${body.length} bytes follow` };
    return { kind: 'data', offset: Number(o), numBytes, squished: flags.has('Squished'), body };
  }
  return { kind: 'invalid', why: 'unknown reply' };
}

const text = (s: string): Uint8Array => encoder.encode(s);

export const encodeSizeRequest = (reset = false): Uint8Array => text(reset ? 'SendSize\nReset\n\n' : 'SendSize\n\n');
export const encodeDataRequest = (offset: number, numBytes: number): Uint8Array => text(`Offset: ${offset}\nNumBytes: ${numBytes}\n\n`);
export const encodeSubmit = (id: string, md5: string): Uint8Array => text(`Submit: ${id}\nMD5: ${md5}\n\n`);
export const encodeSizeReply = (size: number): Uint8Array => text(`Size: ${size}\n\n`);
export const encodeResult = (result: boolean, time: number, penalty: number): Uint8Array => text(`Result: ${result}\nTime: ${time}\nPenalty: ${penalty}\n\n`);
export const encodeError = (message: string): Uint8Array => text(`${message}\n\n`);

export function encodeDataReply(offset: number, body: Uint8Array, squished: boolean): Uint8Array {
  const head = text(`Offset: ${offset}\nNumBytes: ${body.length}\n${squished ? 'Squished\n' : ''}\n`);
  const out = new Uint8Array(head.length + body.length);
  out.set(head);
  out.set(body, head.length);
  return out;
}
