import { encodeDataReply, encodeDataRequest, MAX_CHUNK } from '../offset/protocol.ts';
import type { LiveRun, ScenarioSpec } from '../scenarios/spec.ts';

/** The offset server a session talked to: 9802 for the variable-rate one, 9801 otherwise (the relay's defaults). */
export function offsetServerPort(spec: ScenarioSpec | LiveRun | null): number {
  if (spec && 'live' in spec) return spec.live.variable ? 9802 : 9801;
  return spec?.offset?.policy.variable ? 9802 : 9801;
}

/**
 * A data request as the client sent it. The log keeps its offset and length; the chunk asked for is the
 * course's 1448 bytes, or what is left of the file when that is less, whichever makes the length the log says.
 */
export function requestBytes(offset: number, length: number, fileBytes: number | null): Uint8Array {
  const asked = [MAX_CHUNK, ...(fileBytes !== null && fileBytes - offset < MAX_CHUNK ? [Math.max(0, fileBytes - offset)] : [])];
  const requests = asked.map((n) => encodeDataRequest(offset, n));
  return requests.find((r) => r.length === length) ?? requests[0];
}

const CHUNK = new Uint8Array(MAX_CHUNK);

/** A reply as the server sent it, its chunk of `bytes` zeros (the model keeps no file contents). */
export const replyBytes = (offset: number, bytes: number, squished: boolean) => encodeDataReply(offset, bytes <= MAX_CHUNK ? CHUNK.subarray(0, bytes) : new Uint8Array(bytes), squished);
