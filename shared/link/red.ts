import { num } from '../controllers/types.ts';
import type { Packet } from '../net/packet.ts';
import type { Rng } from '../sim/rng.ts';
import { defineDiscipline, markInstead } from './discipline.ts';
import { DropTailQueue } from './fifo.ts';

/**
 * RED (Floyd and Jacobson, 1993) as Linux's sch_red runs it (include/net/red.h): at each arrival the
 * average backlog in bytes moves by the EWMA weight towards the backlog; below `min` the packet is
 * queued, at or above `max` it is dropped (or, with ECN on, marked CE if ECN-capable), and between them
 * it is dropped or marked when count·p_b reaches a uniform draw R, p_b = max_p·(avg − min)/(max − min),
 * count the packets since the last mark (so marks come evenly spaced), R drawn anew after each. After
 * an idle period the average decays as if `m` empty-queue arrivals had been seen, m the idle time over
 * a packet's service time; Linux takes that time from the configured rate, this queue from the
 * shortest gap it has seen between two departures of a backlogged queue.
 */
export class RedQueue extends DropTailQueue {
  private avg = 0;
  private count = -1;
  private r = 0;
  private idleSince = -1;
  private lastDeparture = -1;
  private serviceMs = Infinity;

  constructor(
    maxPackets: number,
    maxBytes: number,
    private readonly min: number,
    private readonly max: number,
    private readonly maxP: number,
    private readonly weight: number,
    private readonly rng: Rng,
    private readonly ecn = false,
  ) {
    super(maxPackets, maxBytes);
  }

  /** The average backlog, bytes. */
  get average(): number {
    return this.avg;
  }

  push(packet: Packet, arrival: number): boolean {
    this.updateAverage(arrival);
    if (this.avg < this.min) this.count = -1;
    else if (!this.early(packet, arrival)) return false;
    return super.push(packet, arrival);
  }

  private updateAverage(now: number): void {
    if (this.idleSince >= 0) {
      // the first arrival after idle takes the decayed average alone (Linux's red_calc_qavg_from_idle_time)
      const m = Number.isFinite(this.serviceMs) ? Math.floor((now - this.idleSince) / this.serviceMs) : 0;
      this.avg *= (1 - this.weight) ** m;
      this.idleSince = -1;
      return;
    }
    this.avg += (this.bytes - this.avg) * this.weight;
  }

  /** The decision between the thresholds and above: false drops the packet; true queues it (marked or not). */
  private early(packet: Packet, now: number): boolean {
    if (this.avg >= this.max) {
      this.count = -1;
      return markInstead(this, packet, now, this.ecn);
    }
    if (++this.count === 0) {
      this.r = this.rng.next();
      return true;
    }
    const pb = (this.maxP * (this.avg - this.min)) / (this.max - this.min);
    if (pb * this.count < this.r) return true;
    this.count = 0;
    this.r = this.rng.next();
    return markInstead(this, packet, now, this.ecn);
  }

  shift(now: number): Packet {
    const packet = super.shift(now);
    if (this.lastDeparture >= 0 && now > this.lastDeparture) this.serviceMs = Math.min(this.serviceMs, now - this.lastDeparture);
    this.lastDeparture = now;
    if (this.length === 0) this.idleSince = now;
    return packet;
  }
}

export const red = defineDiscipline({
  kind: 'red',
  title: 'RED',
  params: {
    min: num('redMin', 'bytes', 1, 1e9, 1, 30_000, 'RED: average backlog where marking starts (tc red min)'),
    max: num('redMax', 'bytes', 2, 1e9, 1, 90_000, 'RED: average backlog from which every packet is dropped or marked (tc red max)'),
    maxP: num('redMaxP', '', 0.001, 1, 0.001, 0.02, 'RED: probability at the max threshold (tc red probability)'),
    weight: num('redWeight', '', 0.0001, 1, 0.0001, 0.002, 'RED: EWMA weight of the average backlog (2^−Wlog)'),
  },
  create: (limits, d, rng, ecn) => new RedQueue(limits.packets, limits.bytes, d.min, d.max, d.maxP, d.weight, rng, ecn),
});
