/**
 * Frames between the relay and a browser. Browser → relay: binary messages are datagrams (or TCP bytes)
 * for the target, unchanged; text messages are JSON control ({"type":"ping","t":…}). Relay → browser:
 * binary frames carry a 9-byte header — a type byte and the relay's clock (ms, float64 big-endian) —
 * then the payload; text frames are JSON (ready, pong, error).
 */
export const FRAME_HEADER = 9;
export const FRAME_DATA = 0; // payload: a datagram from the target (or bytes of its TCP stream), stamped on arrival
export const FRAME_SENT = 1; // payload: 4-byte count of messages sent so far, stamped when the last went out

export type ControlMessage =
  | { type: 'ready'; target: string; transport: 'udp' | 'tcp'; relayTime: number; limits: BridgeLimits }
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
