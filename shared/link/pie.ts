import type { Packet } from '../net/packet.ts';
import type { Rng } from '../sim/rng.ts';
import { num } from '../controllers/types.ts';
import { defineDiscipline, markInstead } from './discipline.ts';
import { DropTailQueue } from './fifo.ts';
import { OPPORTUNITY_BYTES as PACKET_SIZE } from '../trace/mahimahi.ts';

const ALPHA = 0.125;
const BETA = 1.25;
const T_UPDATE = 30;
const DQ_THRESHOLD = 16384;
/** Above this drop probability PIE with ECN drops ECN-capable packets too (sch_pie.c: MAX_PROB / 10). */
const MAX_MARK_PROB = 0.1;

/**
 * PIE (RFC 8033) as Mahimahi's pie_packet_queue runs it: drops arriving packets at random with a
 * probability that a PI controller updates every 30 ms from the queueing delay (bytes queued ÷ measured
 * departure rate) against `qdelayRef`; a burst allowance of `maxBurst` ms lets bursts through. Times and
 * rates are whole milliseconds and bytes per millisecond, as there; the periodic update is replayed on
 * each enqueue and dequeue for the periods that passed.
 *
 * With ECN (Linux's `pie ecn`, net/sched/sch_pie.c): a packet PIE would drop early is marked CE and
 * queued instead when it is ECN-capable and the probability is at most 10%; above that it is dropped.
 */
export class PieQueue extends DropTailQueue {
  /** Half of qdelay_ref in whole milliseconds, as Mahimahi's uint32 division takes it (7 for 15; RFC 8033 and Linux: 7.5). */
  private readonly halfRef: number;
  private dropProb = 0;
  private burstAllowance = 0;
  private qdelayOld = 0;
  private currentQdelay = 0;
  private dqCount = -1;
  private dqStamp = 0;
  private avgDqRate = 0;
  private lastUpdate = 0;

  constructor(
    maxPackets: number,
    maxBytes: number,
    private readonly qdelayRef: number,
    private readonly maxBurst: number,
    private readonly rng: Rng,
    private readonly ecn = false,
  ) {
    super(maxPackets, maxBytes);
    this.halfRef = Math.floor(qdelayRef / 2);
  }

  push(packet: Packet, arrival: number): boolean {
    this.update(arrival);
    if (!this.fits(this.length + 1, this.bytes + packet.bytes)) return false;
    if (this.dropEarly()) {
      if (this.dropProb > MAX_MARK_PROB || !markInstead(this, packet, arrival, this.ecn)) return false;
    }
    this.accept(packet, arrival);
    return true;
  }

  private dropEarly(): boolean {
    if (this.burstAllowance > 0) return false;
    if (this.qdelayOld < this.halfRef && this.dropProb < 0.2) return false;
    if (this.bytes < 2 * PACKET_SIZE) return false;
    return this.rng.next() < this.dropProb;
  }

  shift(now: number): Packet {
    const packet = super.shift(now);
    const t = Math.floor(now);
    if (this.bytes >= DQ_THRESHOLD && this.dqCount < 0) {
      this.dqStamp = t;
      this.dqCount = 0;
    }
    if (this.dqCount >= 0) this.measure(packet.bytes, t);
    this.update(now);
    return packet;
  }

  /** Departure-rate estimate over cycles of at least DQ_THRESHOLD bytes. */
  private measure(bytes: number, t: number): void {
    this.dqCount += bytes;
    if (this.dqCount <= DQ_THRESHOLD) return;
    const dtime = t - this.dqStamp;
    if (dtime <= 0) return;
    const sample = Math.floor(this.dqCount / dtime);
    this.avgDqRate = this.avgDqRate === 0 ? sample : this.avgDqRate - (this.avgDqRate >> 3) + (sample >> 3);
    if (this.bytes < DQ_THRESHOLD) this.dqCount = -1;
    else {
      this.dqCount = 0;
      this.dqStamp = t;
    }
    this.burstAllowance = Math.max(0, this.burstAllowance - dtime);
  }

  /** The drop probability's periodic update, once for every T_UPDATE ms since the last. */
  private update(now: number): void {
    while (Math.floor(now) - this.lastUpdate > T_UPDATE) {
      let updateProb = true;
      this.qdelayOld = this.currentQdelay;
      this.currentQdelay = this.avgDqRate > 0 ? Math.floor(this.bytes / this.avgDqRate) : 0;
      if (this.currentQdelay === 0 && this.bytes !== 0) updateProb = false;
      let p = ALPHA * (this.currentQdelay - this.qdelayRef) + BETA * (this.currentQdelay - this.qdelayOld);
      p /= this.dropProb < 0.01 ? 128 : this.dropProb < 0.1 ? 32 : 16;
      this.dropProb += p;
      if (this.dropProb < 0) this.dropProb = 0;
      else if (this.dropProb > 1) {
        this.dropProb = 1;
        updateProb = false;
      }
      if (this.currentQdelay === 0 && this.qdelayOld === 0 && updateProb) this.dropProb *= 0.98;
      this.burstAllowance = Math.max(0, this.burstAllowance - T_UPDATE);
      this.lastUpdate += T_UPDATE;
      if (this.dropProb === 0 && this.currentQdelay < this.halfRef && this.qdelayOld < this.halfRef && this.avgDqRate > 0) {
        this.dqCount = -1;
        this.avgDqRate = 0;
        this.burstAllowance = this.maxBurst;
      }
    }
  }

  /** The drop probability the controller has reached. */
  get probability(): number {
    return this.dropProb;
  }
}

export const pie = defineDiscipline({
  kind: 'pie',
  title: 'PIE',
  params: {
    qdelayRef: num('pieTarget', 'ms', 1, 1000, 1, 15, 'PIE: reference queueing delay (qdelay_ref)'),
    maxBurst: num('pieMaxBurst', 'ms', 0, 10_000, 1, 150, 'PIE: burst allowance'),
  },
  create: (limits, d, rng, ecn) => new PieQueue(limits.packets, limits.bytes, d.qdelayRef, d.maxBurst, rng, ecn),
});
