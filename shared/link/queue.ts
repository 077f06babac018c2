import type { Packet } from '../net/packet.ts';
import type { Rng } from '../sim/rng.ts';
import { CodelQueue } from './codel.ts';
import { DropHeadQueue, DropTailQueue } from './fifo.ts';
import { PieQueue } from './pie.ts';

export { DropHeadQueue, DropTailQueue } from './fifo.ts';

/**
 * The queue in front of a bottleneck. Every discipline sits behind this interface, as in Mahimahi:
 * drop-tail and drop-head by packets or bytes (or unlimited), CoDel and PIE.
 */
export interface PacketQueue {
  /** Adds the packet, or returns false when the discipline refuses it. */
  push(packet: Packet, arrival: number): boolean;
  /** Takes the head packet out at `now` (an AQM may drop others on the way). */
  shift(now: number): Packet;
  /** Arrival time of the packet at the head. */
  readonly headArrival: number;
  readonly length: number;
  readonly bytes: number;
  /** Called with each packet the discipline drops after accepting it (drop-head, CoDel). */
  onDrop: (packet: Packet, now: number) => void;
}

export type QueueLimit = { kind: 'infinite' } | { kind: 'packets'; limit: number } | { kind: 'bytes'; limit: number };

/** Mahimahi's disciplines with their arguments (ms). */
export type Discipline = { kind: 'drop-tail' } | { kind: 'drop-head' } | { kind: 'codel'; target: number; interval: number } | { kind: 'pie'; qdelayRef: number; maxBurst: number };

export type QueueSpec = QueueLimit & { discipline?: Discipline };

export const DISCIPLINES = ['drop-tail', 'drop-head', 'codel', 'pie'] as const;

/** `rng` draws PIE's random early drops. */
export function createQueue(spec: QueueSpec, rng: Rng): PacketQueue {
  const packets = spec.kind === 'packets' ? spec.limit : Infinity;
  const bytes = spec.kind === 'bytes' ? spec.limit : Infinity;
  const d = spec.discipline ?? { kind: 'drop-tail' };
  switch (d.kind) {
    case 'drop-tail':
      return new DropTailQueue(packets, bytes);
    case 'drop-head':
      return new DropHeadQueue(packets, bytes);
    case 'codel':
      return new CodelQueue(packets, bytes, d.target, d.interval);
    case 'pie':
      return new PieQueue(packets, bytes, d.qdelayRef, d.maxBurst, rng);
  }
}
