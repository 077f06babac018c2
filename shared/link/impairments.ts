import type { Packet, PacketSink } from '../net/packet.ts';
import type { EventLog } from '../log/eventLog.ts';
import { DROP, K } from '../log/kinds.ts';
import type { Rng } from '../sim/rng.ts';
import type { Scheduler } from '../sim/scheduler.ts';

/** netem-like impairments of one direction. Probabilities are fractions (0.01 = 1%). */
export interface ImpairmentSpec {
  loss: number;
  /** Gilbert–Elliott burst loss: p = good→bad per packet, r = bad→good per packet, lossBad in the bad state. */
  burst: { p: number; r: number; lossBad: number } | null;
  duplicate: number;
  reorder: number;
  /** Uniform jitter ±ms added to the propagation delay. */
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

  constructor(private readonly spec: ImpairmentSpec, rng: Rng, private readonly log: EventLog, private readonly ackDirection: boolean) {
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

/**
 * Fixed propagation delay with uniform jitter. As in netem, a reordered packet is sent at once, skipping
 * this direction's delay, so it overtakes the packets before it.
 */
export class DelayLine implements PacketSink {
  next: PacketSink | null = null;
  private readonly jitterRng: Rng;
  private readonly reorderRng: Rng;
  /** Packets on the wire, not yet delivered. */
  inFlight = 0;

  constructor(private readonly scheduler: Scheduler, private readonly delayMs: number, private readonly spec: ImpairmentSpec, rng: Rng) {
    this.jitterRng = rng.stream('jitter');
    this.reorderRng = rng.stream('reorder');
  }

  receive(packet: Packet, now: number): void {
    let delay = this.delayMs;
    if (this.spec.reorder > 0 && this.reorderRng.chance(this.spec.reorder)) delay = 0;
    else if (this.spec.jitter > 0) delay = Math.max(0, delay + this.jitterRng.uniform(-this.spec.jitter, this.spec.jitter));
    if (delay === 0) {
      this.next!.receive(packet, now);
      return;
    }
    const next = this.next!;
    this.inFlight++;
    this.scheduler.at(now + delay, (t) => {
      this.inFlight--;
      next.receive(packet, t);
    });
  }
}
