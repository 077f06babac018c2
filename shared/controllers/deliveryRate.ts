import type { Ack } from './types.ts';
import { atMost, WindowedFilter } from './windowedFilter.ts';

/** TCP's own minimum RTT (tcp_min_rtt, five minutes), which judges whether a rate sample is long enough. */
const TCP_MIN_RTT_WINDOW_MS = 300_000;

/** What the sender noted when it sent a packet. */
interface SendState {
  delivered: number;
  deliveredTime: number;
  firstSentTime: number;
  sentAt: number;
  appLimited: boolean;
}

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
  private readonly states = new Map<number, SendState>();
  private readonly tcpMinRtt = new WindowedFilter(TCP_MIN_RTT_WINDOW_MS, atMost, Infinity);

  sent(seq: number, now: number): void {
    if (this.inFlight === 0) this.firstSentTime = this.deliveredTime = now;
    this.inFlight++;
    this.states.set(seq, { delivered: this.delivered, deliveredTime: this.deliveredTime, firstSentTime: this.firstSentTime, sentAt: now, appLimited: this.appLimitedUntil !== 0 });
  }

  /** The sample an ACK gives, or null when it delivered nothing new. */
  acked(ack: Ack): RateSample | null {
    const state = this.states.get(ack.seq);
    this.states.delete(ack.seq);
    this.inFlight = ack.inFlight;
    if (!state) return null;
    const now = ack.now;
    const rtt = now - ack.sentAt;
    this.tcpMinRtt.update(now, rtt);
    this.delivered++;
    if (this.appLimitedUntil !== 0 && this.delivered > this.appLimitedUntil) this.appLimitedUntil = 0;
    this.deliveredTime = now;
    this.firstSentTime = state.sentAt;
    const interval = Math.max(state.sentAt - state.firstSentTime, now - state.deliveredTime);
    return {
      delivered: this.delivered - state.delivered,
      interval: interval >= this.tcpMinRtt.value ? interval : -1,
      appLimited: state.appLimited,
      priorDelivered: state.delivered,
      priorInFlight: ack.inFlight + 1,
      rtt,
    };
  }

  /** What is sent from now until everything now in flight is delivered is app-limited. */
  markAppLimited(inFlight: number): void {
    this.appLimitedUntil = this.delivered + inFlight || 1;
  }
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
