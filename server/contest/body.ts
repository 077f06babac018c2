import type { IncomingMessage } from 'node:http';

/**
 * A request body read to at most `max` bytes: a longer one (by its Content-Length, or as it arrives) is
 * refused without reading the rest; bytes that are not UTF-8 are refused as such.
 */
export type Body = { ok: true; text: string } | { ok: false; status: 400 | 413; error: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function readBody(req: IncomingMessage, max: number): Promise<Body> {
  const tooLong: Body = { ok: false, status: 413, error: `the request body is over ${max} bytes` };
  if (Number(req.headers['content-length'] ?? 0) > max) return Promise.resolve(tooLong);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        req.removeAllListeners('data');
        req.pause();
        resolve(tooLong);
      } else chunks.push(c);
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
