import type { Rng } from '../sim/rng.ts';
import type { PacketQueue } from './discipline.ts';
import { disciplineEntry, type Discipline } from './disciplines.ts';

export type { PacketQueue } from './discipline.ts';
export type { Discipline } from './disciplines.ts';
export { DISCIPLINES } from './disciplines.ts';
export { DropHeadQueue, DropTailQueue } from './fifo.ts';

export type QueueLimit = { kind: 'infinite' } | { kind: 'packets'; limit: number } | { kind: 'bytes'; limit: number };

export type QueueSpec = QueueLimit & { discipline?: Discipline };

/** The queue a spec describes, by its discipline's entry. `rng` draws an AQM's random drops (PIE's); `ecn` turns its drops of ECN-capable packets into CE marks. */
export function createQueue(spec: QueueSpec, rng: Rng, ecn = false): PacketQueue {
  const limits = { packets: spec.kind === 'packets' ? spec.limit : Infinity, bytes: spec.kind === 'bytes' ? spec.limit : Infinity };
  const d = spec.discipline ?? { kind: 'drop-tail' };
  return disciplineEntry(d.kind).create(limits, d as never, rng, ecn);
}
