import type { Packet, PacketSink } from '../net/packet.ts';
import type { EventLog } from '../log/eventLog.ts';
import { DROP, K } from '../log/kinds.ts';
import type { Rng } from '../sim/rng.ts';
import type { Scheduler } from '../sim/scheduler.ts';
import { PacketRing } from './packetRing.ts';

/** netem-like impairments of one direction. Probabilities are fractions (0.01 = 1%). */
export interface ImpairmentSpec {
  loss: number;
  /** Gilbert–Elliott burst loss: p = good→bad per packet, r = bad→good per packet, lossBad in the bad state. */
  burst: { p: number; r: number; lossBad: number } | null;
  duplicate: number;
  reorder: number;
  /** Uniform jitter ±ms added to the propagation delay. */
  jitter: number;
  /** The netem link model's reordering gap (tc's `gap`; 1 when absent, as tc sets it). */
  gap?: number;
  /** The netem link model's correlations (fractions, as tc's CORRELATION percentages); none when absent. */
  correlation?: NetemCorrelation;
}

/** How much each of netem's random draws leans on the one before (tc-netem's CORRELATION arguments). */
export interface NetemCorrelation {
  loss: number;
  duplicate: number;
  reorder: number;
  jitter: number;
}

export const NO_IMPAIRMENTS: ImpairmentSpec = { loss: 0, burst: null, duplicate: 0, reorder: 0, jitter: 0 };

/**
 * Loss and duplication, applied where a packet enters a direction of the path. Each effect draws from
 * its own stream so that enabling one leaves the others' outcomes unchanged.
 */
export class LossStage implements PacketSink {
  next: PacketSink | null = null;
  private bad = false;
  private readonly lossRng: Rng;
  private readonly burstRng: Rng;
  private readonly dupRng: Rng;

  constructor(
    private readonly spec: ImpairmentSpec,
    rng: Rng,
    private readonly log: EventLog,
    private readonly ackDirection: boolean,
  ) {
    this.lossRng = rng.stream('loss');
    this.burstRng = rng.stream('burst');
    this.dupRng = rng.stream('duplicate');
  }

  receive(packet: Packet, now: number): void {
    if (this.spec.loss > 0 && this.lossRng.chance(this.spec.loss)) return this.drop(packet, now, DROP.loss);
    const burst = this.spec.burst;
    if (burst) {
      this.bad = this.bad ? !this.burstRng.chance(burst.r) : this.burstRng.chance(burst.p);
      if (this.bad && this.burstRng.chance(burst.lossBad)) return this.drop(packet, now, DROP['burst-loss']);
    }
    this.next!.receive(packet, now);
    if (this.spec.duplicate > 0 && this.dupRng.chance(this.spec.duplicate)) {
      this.log.push(now, K.duplicate, packet.flow, packet.seq, packet.bytes, this.ackDirection ? 1 : 0, 0);
      this.next!.receive({ ...packet }, now);
    }
  }

  private drop(packet: Packet, now: number, reason: number): void {
    this.log.push(now, K.drop, packet.flow, packet.seq, packet.bytes, this.ackDirection ? DROP['ack-loss'] : reason, 0);
  }
}

/** One packet's delay: 0 when reordered (netem sends those at once), else the delay ± uniform jitter. */
export function impairedDelay(delayMs: number, spec: ImpairmentSpec, reorderRng: Rng, jitterRng: Rng): number {
  if (spec.reorder > 0 && reorderRng.chance(spec.reorder)) return 0;
  if (spec.jitter > 0) return Math.max(0, delayMs + jitterRng.uniform(-spec.jitter, spec.jitter));
  return delayMs;
}

/** Whether a direction drops or duplicates anything (if not, its loss stage can be left out). */
export function losesOrDuplicates(spec: ImpairmentSpec): boolean {
  return spec.loss > 0 || spec.burst !== null || spec.duplicate > 0;
}

/**
 * Packets that leave in the order they came, each at its own time (never before the one ahead of it): a
 * ring of packets and exit times with a single pending event, instead of one scheduled callback each.
 */
export class TimedFifo {
  next: PacketSink | null = null;
  private readonly ring = new PacketRing();
  private readonly release = (now: number) => {
    const next = this.next!;
    const ring = this.ring;
    while (ring.length > 0 && ring.headTime <= now) next.receive(ring.shift(), now);
    if (ring.length > 0) this.scheduler.at(ring.headTime, this.release);
  };

  constructor(private readonly scheduler: Scheduler) {}

  /** Packets waiting to leave. */
  get count(): number {
    return this.ring.length;
  }

  /** Queues a packet to leave at `exit`, which is no earlier than the exit of the packet queued before it. */
  push(packet: Packet, exit: number): void {
    this.ring.push(packet, exit);
    if (this.ring.length === 1) this.scheduler.at(exit, this.release);
  }
}

/**
 * Fixed propagation delay with uniform jitter. As in netem, a reordered packet is sent at once, skipping
 * this direction's delay, so it overtakes the packets before it. Without jitter or reordering packets
 * leave in the order they came, through a TimedFifo.
 */
export class DelayLine implements PacketSink {
  private readonly jitterRng: Rng;
  private readonly reorderRng: Rng;
  private readonly fifo: boolean;
  private readonly line: TimedFifo;
  private scattered = 0;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly delayMs: number,
    private readonly spec: ImpairmentSpec,
    rng: Rng,
  ) {
    this.jitterRng = rng.stream('jitter');
    this.reorderRng = rng.stream('reorder');
    this.fifo = spec.jitter === 0 && spec.reorder === 0;
    this.line = new TimedFifo(scheduler);
  }

  get next(): PacketSink | null {
    return this.line.next;
  }

  set next(sink: PacketSink | null) {
    this.line.next = sink;
  }

  /** Packets on the wire, not yet delivered. */
  get inFlight(): number {
    return this.line.count + this.scattered;
  }

  receive(packet: Packet, now: number): void {
    if (!this.fifo) return this.scatter(packet, now);
    if (this.delayMs === 0) return this.next!.receive(packet, now);
    this.line.push(packet, now + this.delayMs);
  }

  /**
   * A packet with a delay of its own (jitter, reordering), as an event of its own. Out of `receive`: a
   * function that makes a closure of its argument keeps the argument in a context it allocates at every call.
   */
  private scatter(packet: Packet, now: number): void {
    const delay = impairedDelay(this.delayMs, this.spec, this.reorderRng, this.jitterRng);
    if (delay === 0) return this.next!.receive(packet, now);
    const next = this.next!;
    this.scattered++;
    this.scheduler.at(now + delay, (t) => {
      this.scattered--;
      next.receive(packet, t);
    });
  }
}
