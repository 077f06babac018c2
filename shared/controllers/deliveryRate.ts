import type { Ack } from './types.ts';
import { atMost, WindowedFilter } from './windowedFilter.ts';

/** TCP's own minimum RTT (tcp_min_rtt, five minutes), which judges whether a rate sample is long enough. */
const TCP_MIN_RTT_WINDOW_MS = 300_000;

/** One ACK's delivery-rate sample (tcp_rate.c's rate_sample); `interval` ≤ 0 marks it invalid. */
export interface RateSample {
  /** Packets delivered between the ACKed packet's send and its ACK. */
  delivered: number;
  /** ms: the longer of the send and ACK phases. */
  interval: number;
  appLimited: boolean;
  /** The delivered count when the ACKed packet was sent: rounds are told by it. */
  priorDelivered: number;
  priorInFlight: number;
  rtt: number;
}

/**
 * Delivery-rate samples as Linux's tcp_rate.c takes them: a packet's ACK gives the packets delivered since
 * it was sent over the longer of the send phase (from the first to the last send of the window) and the
 * ACK phase, since packets can seem delivered faster than the bottleneck only for a moment (ACKs that
 * arrive in a burst, as Mahimahi's traces deliver them); a sample over less than the minimum RTT is
 * invalid. Packets sent while the sender is app-limited give app-limited samples.
 */
export class DeliveryRate {
  delivered = 0;
  private deliveredTime = 0;
  private firstSentTime = 0;
  private inFlight = 0;
  /** tp->app_limited: samples are app-limited until `delivered` passes it (0: not limited). */
  private appLimitedUntil = 0;
  private readonly tcpMinRtt = new WindowedFilter(TCP_MIN_RTT_WINDOW_MS, atMost, Infinity);
  /** What the sender noted when it sent each packet not yet ACKed: a row of `sent` per sequence number. */
  private readonly rows = new Map<number, number>();
  private readonly states = new SendStates();
  /** The sample `acked` hands back, filled again by each ACK (a caller reads it before the next). */
  private readonly sample: RateSample = { delivered: 0, interval: 0, appLimited: false, priorDelivered: 0, priorInFlight: 0, rtt: 0 };

  sent(seq: number, now: number): void {
    if (this.inFlight === 0) this.firstSentTime = this.deliveredTime = now;
    this.inFlight++;
    let row = this.rows.get(seq);
    if (row === undefined) this.rows.set(seq, (row = this.states.take()));
    this.states.write(row, this.delivered, this.deliveredTime, this.firstSentTime, now, this.appLimitedUntil !== 0);
  }

  /** The sample an ACK gives, or null when it delivered nothing new. */
  acked(ack: Ack): RateSample | null {
    const row = this.rows.get(ack.seq);
    this.inFlight = ack.inFlight;
    if (row === undefined) return null;
    this.rows.delete(ack.seq);
    this.states.give(row);
    const s = this.states;
    const now = ack.now;
    const rtt = now - ack.sentAt;
    this.tcpMinRtt.update(now, rtt);
    this.delivered++;
    if (this.appLimitedUntil !== 0 && this.delivered > this.appLimitedUntil) this.appLimitedUntil = 0;
    this.deliveredTime = now;
    this.firstSentTime = s.sentAt[row];
    const interval = Math.max(s.sentAt[row] - s.firstSentTime[row], now - s.deliveredTime[row]);
    const sample = this.sample;
    sample.delivered = this.delivered - s.delivered[row];
    sample.interval = interval >= this.tcpMinRtt.value ? interval : -1;
    sample.appLimited = s.appLimited[row] === 1;
    sample.priorDelivered = s.delivered[row];
    sample.priorInFlight = ack.inFlight + 1;
    sample.rtt = rtt;
    return sample;
  }

  /** What is sent from now until everything now in flight is delivered is app-limited. */
  markAppLimited(inFlight: number): void {
    this.appLimitedUntil = this.delivered + inFlight || 1;
  }
}

/**
 * Send states in columns, rows reused once their packet is ACKed: a long run allocates no object per
 * packet. A row read after `give` keeps its values until `take` hands it out again.
 */
class SendStates {
  delivered = new Float64Array(256);
  deliveredTime = new Float64Array(256);
  firstSentTime = new Float64Array(256);
  sentAt = new Float64Array(256);
  appLimited = new Uint8Array(256);
  private used = 0;
  private readonly spare: number[] = [];

  take(): number {
    const row = this.spare.pop();
    if (row !== undefined) return row;
    if (this.used === this.sentAt.length) this.grow();
    return this.used++;
  }

  give(row: number): void {
    this.spare.push(row);
  }

  write(row: number, delivered: number, deliveredTime: number, firstSentTime: number, sentAt: number, appLimited: boolean): void {
    this.delivered[row] = delivered;
    this.deliveredTime[row] = deliveredTime;
    this.firstSentTime[row] = firstSentTime;
    this.sentAt[row] = sentAt;
    this.appLimited[row] = appLimited ? 1 : 0;
  }

  private grow(): void {
    const n = this.sentAt.length * 2;
    this.delivered = widen(this.delivered, new Float64Array(n));
    this.deliveredTime = widen(this.deliveredTime, new Float64Array(n));
    this.firstSentTime = widen(this.firstSentTime, new Float64Array(n));
    this.sentAt = widen(this.sentAt, new Float64Array(n));
    this.appLimited = widen(this.appLimited, new Uint8Array(n));
  }
}

function widen<T extends Float64Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** The packets delivered over the last `span` ms, counted by their ACKs' arrival. */
export class RecentDeliveries {
  private readonly times: number[] = [];
  private head = 0;

  /** Counts one delivery at `now`, and forgets those `span` or more ms before it. */
  add(now: number, span: number): void {
    this.times.push(now);
    while (this.times[this.head] <= now - span) this.head++;
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times.splice(0, this.head);
      this.head = 0;
    }
  }

  get count(): number {
    return this.times.length - this.head;
  }
}
