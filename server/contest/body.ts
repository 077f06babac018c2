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

/** Bodies one client address may be sending at once: a student submits one controller at a time. */
export const BODIES_PER_ADDRESS = 2;
/**
 * Bytes of bodies read at once over all addresses (each counted at its declared length, or at the most a
 * body may be when it declares none): about twenty of the largest submissions, far more than a class sends
 * at once (a controller is a few KB), and a bound on what stalled senders can make the relay hold.
 */
export const BODY_BYTES_IN_FLIGHT = 32 * 1024 * 1024;

/** The bodies being read now, by address and in bytes; a body over either bound is refused before it is read. */
export class BodyBudget {
  private readonly byAddress = new Map<string, number>();
  private bytes = 0;

  constructor(
    private readonly perAddress = BODIES_PER_ADDRESS,
    private readonly total = BODY_BYTES_IN_FLIGHT,
  ) {}

  /** Takes a place for a body of at most `max` bytes; null if it is taken (freed when the request closes), else the refusal. */
  take(req: IncomingMessage, address: string, max: number): { status: 429 | 503; error: string } | null {
    const declared = Number(req.headers['content-length']);
    const bytes = Number.isInteger(declared) && declared >= 0 ? Math.min(declared, max) : max;
    const from = this.byAddress.get(address) ?? 0;
    if (from >= this.perAddress) return { status: 429, error: `${this.perAddress} requests from your address are sending a submission already: send the next once one is answered` };
    if (this.bytes + bytes > this.total) return { status: 503, error: 'the relay is reading as many submissions as it takes at once: try again in a moment' };
    this.byAddress.set(address, from + 1);
    this.bytes += bytes;
    req.once('close', () => {
      this.bytes -= bytes;
      const left = (this.byAddress.get(address) ?? 1) - 1;
      if (left > 0) this.byAddress.set(address, left);
      else this.byAddress.delete(address);
    });
    return null;
  }
}

/** Refuses a body without reading it: the connection is cut once the refusal has had a moment to leave. */
export function leaveUnread(req: IncomingMessage): void {
  drain(req, Number.POSITIVE_INFINITY);
}
