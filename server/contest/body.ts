import type { IncomingMessage } from 'node:http';

/**
 * A request body read to at most `max` bytes; bytes that are not UTF-8 are refused as such. A longer body
 * is refused, and the rest of it is read and dropped (up to DRAIN_BYTES, for DRAIN_MS at most) so that the
 * client, still sending, gets the refusal rather than a reset connection; past that the connection is cut.
 */
export type Body = { ok: true; text: string } | { ok: false; status: 400 | 413; error: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });
const DRAIN_BYTES = 16 * 1024 * 1024;
const DRAIN_MS = 2000;

/** Drops what is left of a refused body, cutting the connection past the drain's bounds. */
function drain(req: IncomingMessage, declared: number): void {
  const cut = () => req.socket.destroy();
  if (declared > DRAIN_BYTES) {
    setTimeout(cut, 100).unref();
    return;
  }
  let dropped = 0;
  req.removeAllListeners('data');
  req.on('data', (c: Buffer) => {
    dropped += c.length;
    if (dropped > DRAIN_BYTES) cut();
  });
  req.resume();
  setTimeout(cut, DRAIN_MS).unref();
}

export function readBody(req: IncomingMessage, max: number): Promise<Body> {
  const declared = Number(req.headers['content-length'] ?? 0);
  const tooLong = (): Body => {
    drain(req, declared);
    return { ok: false, status: 413, error: `the request body is over ${max} bytes` };
  };
  if (declared > max) return Promise.resolve(tooLong());
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) resolve(tooLong());
      else chunks.push(c);
    });
    req.on('error', () => resolve({ ok: false, status: 400, error: 'the request body was cut off' }));
    req.on('end', () => {
      try {
        resolve({ ok: true, text: utf8.decode(Buffer.concat(chunks)) });
      } catch {
        resolve({ ok: false, status: 400, error: 'the request body is not valid UTF-8' });
      }
    });
  });
}
