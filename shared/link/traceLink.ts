import type { Packet } from '../net/packet.ts';
import type { Scheduler } from '../sim/scheduler.ts';
import { OPPORTUNITY_BYTES, tracePeriod, type Trace } from '../trace/mahimahi.ts';
import { Bottleneck, type LinkTap } from './bottleneck.ts';
import type { PacketQueue } from './queue.ts';

/**
 * A trace-driven bottleneck with mm-link's semantics: time in whole milliseconds, byte accounting across
 * 1504-byte opportunities (a packet may use parts of several; what is left of an opportunity when the
 * queue runs dry is lost), opportunities at millisecond t used before packets arriving at t join the
 * queue, and the trace looping with the period of its last timestamp unless `once`.
 */
export class TraceLink extends Bottleneck {
  private index = 0;
  private base = 0;
  private finished = false;
  private inTransit: Packet | null = null;
  private inTransitArrival = 0;
  private bytesLeft = 0;
  private wakeAt = -1;
  private readonly times: Int32Array;
  private readonly period: number;
  private readonly onWake = (now: number) => {
    this.wakeAt = -1;
    this.rationalize(now);
    this.wake();
  };

  constructor(
    scheduler: Scheduler,
    trace: Trace,
    queue: PacketQueue,
    tap: LinkTap,
    private readonly once = false,
  ) {
    super(scheduler, queue, tap);
    this.times = trace.times;
    this.period = tracePeriod(trace);
  }

  receive(packet: Packet, now: number): void {
    const ms = Math.floor(now);
    this.rationalize(ms);
    if (this.admit(packet, ms, now)) this.wake();
  }

  get nextOpportunity(): number {
    return this.finished ? Infinity : this.times[this.index] + this.base;
  }

  private wake(): void {
    if (this.wakeAt >= 0 || (this.queue.length === 0 && this.inTransit === null)) return;
    const at = this.nextOpportunity;
    if (at === Infinity) return;
    this.wakeAt = at;
    this.scheduler.at(at, this.onWake);
  }

  private useOpportunity(): void {
    if (++this.index === this.times.length) {
      this.index = 0;
      if (this.once) this.finished = true;
      else this.base += this.period;
    }
  }

  /** Spends every opportunity up to and including `now`. */
  private rationalize(now: number): void {
    while (!this.finished) {
      const at = this.times[this.index] + this.base;
      if (at > now) return;
      let budget = OPPORTUNITY_BYTES;
      this.useOpportunity();
      while (budget > 0) {
        if (this.inTransit === null) {
          if (this.queue.length === 0) break;
          this.inTransitArrival = this.queue.headArrival;
          this.inTransit = this.queue.shift(at);
          this.bytesLeft = this.inTransit.bytes;
        }
        const sent = budget < this.bytesLeft ? budget : this.bytesLeft;
        this.bytesLeft -= sent;
        budget -= sent;
        if (this.bytesLeft === 0) {
          const packet = this.inTransit;
          this.inTransit = null;
          this.depart(packet, this.inTransitArrival, at);
        }
      }
      if (this.queue.length === 0 && this.inTransit === null) {
        // Idle: skip the rest of the opportunities up to now without walking them one at a time.
        this.skipIdle(now);
      }
    }
  }

  /** Advances past all opportunities at or before `now` while nothing is queued. */
  private skipIdle(now: number): void {
    // usually the next opportunity is already after now (an opportunity at or before now means the period has not ended)
    if (this.nextOpportunity > now) return;
    if (!this.once && now - this.base >= this.period) {
      this.base += Math.floor((now - this.base) / this.period) * this.period;
      this.index = 0;
    }
    while (!this.finished && this.nextOpportunity <= now) {
      this.index = this.firstAfter(now);
      if (this.nextOpportunity <= now) this.useOpportunity();
    }
  }

  /**
   * The first opportunity of this period after `now` (or the period's last), searched from the current
   * one in growing steps and then by bisection: an idle link is usually only a few opportunities behind.
   */
  private firstAfter(now: number): number {
    const times = this.times;
    const limit = now - this.base;
    let lo = this.index;
    let step = 1;
    let hi = lo + step;
    while (hi < times.length - 1 && times[hi] <= limit) {
      lo = hi + 1;
      step *= 2;
      hi = lo + step;
    }
    if (hi > times.length - 1) hi = times.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (times[mid] <= limit) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  get packetInTransit(): boolean {
    return this.inTransit !== null;
  }
}
