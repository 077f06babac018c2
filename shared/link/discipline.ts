import type { NumberParam } from '../controllers/types.ts';
import { markCe, type Packet } from '../net/packet.ts';
import type { Rng } from '../sim/rng.ts';

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
  /** Called with each packet an AQM with ECN on marked CE instead of dropping it. */
  onMark: (packet: Packet, now: number) => void;
}

/**
 * An AQM's mark in place of a drop: with ECN on, an ECN-capable packet is marked CE and reported to the
 * queue's onMark. False means there is no mark to make: drop the packet.
 */
export function markInstead(queue: PacketQueue, packet: Packet, now: number, ecn: boolean): boolean {
  if (!ecn || !markCe(packet)) return false;
  queue.onMark(packet, now);
  return true;
}

/** What a queue may hold; Infinity where its limit is not in that unit. */
export interface QueueLimits {
  packets: number;
  bytes: number;
}

/** A discipline's settings as the link spec holds them: its kind and one number per setting. */
export type DisciplineSettings<K extends string, F extends string> = { kind: K } & { [Field in F]: number };

/**
 * One queue discipline: its name, its settings as link parameters (each keyed by the spec's field for
 * it, named as the link's schema shows it, so names stay unique across disciplines), and its queue.
 */
export interface DisciplineEntry<K extends string = string, F extends string = string> {
  kind: K;
  /** As the sidebar and --help name it. */
  title: string;
  params: { readonly [Field in F]: NumberParam };
  /** `ecn`: the link has ECN on, so an AQM marks ECN-capable packets CE where it would drop them. */
  create(limits: QueueLimits, settings: DisciplineSettings<K, F>, rng: Rng, ecn: boolean): PacketQueue;
}

/** Declares a discipline whose `create` receives its settings typed, so a renamed field fails to compile. */
export function defineDiscipline<const K extends string, const F extends string = never>(entry: DisciplineEntry<K, F>): DisciplineEntry<K, F> {
  return entry;
}

/** The settings a discipline's entry describes. */
export type SettingsOf<E> = E extends DisciplineEntry<infer K, infer F> ? DisciplineSettings<K, F> : never;
