/**
 * Frames between the relay and a browser. Browser → relay: binary messages are datagrams (or TCP bytes)
 * for the target, unchanged; text messages are JSON control ({"type":"ping","t":…}). Relay → browser:
 * binary frames carry a 9-byte header — a type byte and the relay's clock (ms, float64 big-endian) —
 * then the payload; text frames are JSON (ready, pong, error).
 */
export const FRAME_HEADER = 9;
export const FRAME_DATA = 0; // payload: a datagram from the target (or bytes of its TCP stream), stamped on arrival
export const FRAME_SENT = 1; // payload: 4-byte number of the message (counted from 1), stamped when it went out; timed: then the relay's clock when the message arrived (float64)

/**
 * A timed session (`timed=1`): each binary message from the page starts with the relay-clock time (ms,
 * float64 big-endian) at which the relay is to send the rest; the relay keeps that time, not the page's
 * timers, and stamps every datagram with a FRAME_SENT when it actually leaves.
 */
export const TIMED_PREFIX = 8;
/**
 * How far ahead a timed datagram may be handed over, and how many, and how many bytes of them, may wait at
 * once: requests are tens of bytes, so a page parking datagrams of tens of kilobytes meets the byte bound.
 */
export const MAX_TIMED_LEAD_MS = 2000;
export const MAX_TIMED_PENDING = 512;
export const MAX_TIMED_PENDING_BYTES = 256 * 1024;

export function timedMessage(sendAt: number, datagram: Uint8Array): Uint8Array {
  const out = new Uint8Array(TIMED_PREFIX + datagram.length);
  new DataView(out.buffer).setFloat64(0, sendAt);
  out.set(datagram, TIMED_PREFIX);
  return out;
}

/**
 * What the relay's servers record a UDP session under (the bridge socket's address, "127.0.0.1:40312") and
 * the relay's clock (ms since the epoch, as its servers date a session) as it opened: told to that session's
 * page alone, so it can tell its own recorded sessions from everyone else's.
 */
export interface RelaySession {
  key: string;
  since: number;
}

export type ControlMessage =
  | { type: 'ready'; target: string; transport: 'udp' | 'tcp'; relayTime: number; limits: BridgeLimits; session?: RelaySession }
  | { type: 'pong'; t: number; relayTime: number }
  | { type: 'error'; message: string; fatal: boolean };

export interface BridgeLimits {
  maxMessageBytes: number;
  maxDatagramsPerSecond: number;
  /** Bytes per second a session may send, counted over every message, text or binary. */
  maxBytesPerSecond: number;
  idleMs: number;
}

export function frame(type: number, relayTime: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(FRAME_HEADER + payload.length);
  out[0] = type;
  new DataView(out.buffer).setFloat64(1, relayTime);
  out.set(payload, FRAME_HEADER);
  return out;
}

export function unframe(data: Uint8Array): { type: number; relayTime: number; payload: Uint8Array } | null {
  if (data.length < FRAME_HEADER) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return { type: data[0], relayTime: view.getFloat64(1), payload: data.subarray(FRAME_HEADER) };
}
