import type { Rng } from '../sim/rng.ts';
import { BaseController, choice, defineScheme, num, type Ack } from './types.ts';
import { atLeast, atMost, WindowedFilter } from './windowedFilter.ts';

type Mode = 'startup' | 'drain' | 'probe-bw' | 'probe-rtt';
type Variant = (typeof VARIANTS)[number];

const VARIANTS = ['time-rounds', 'linux-v1'] as const;

// Linux's gains are fractions of 256: 2/ln 2 rounded up, its inverse rounded down.
const HIGH_GAIN = 739 / 256;
const DRAIN_GAIN = 88 / 256;
const CWND_GAIN = 2;
const CYCLE = [1.25, 0.75, 1, 1, 1, 1, 1, 1];
const CYCLE_RANDOM_PHASES = 7;
const PACING_MARGIN = 0.99; // pace 1% below the estimate, so the queue tends to empty
const MIN_RTT_WINDOW_MS = 10_000;
const TCP_MIN_RTT_WINDOW_MS = 300_000; // TCP's own minimum RTT, which judges rate samples
const PROBE_RTT_MS = 200;
const MIN_CWND = 4;
const INIT_CWND = 10; // TCP_INIT_CWND
const FULL_BW_GROWTH = 1.25;
const FULL_BW_ROUNDS = 3;

/** What the sender noted when it sent a packet, as tcp_rate.c does. */
interface SendState {
  delivered: number;
  deliveredTime: number;
  firstSentTime: number;
  sentAt: number;
  appLimited: boolean;
}

/** One ACK's delivery-rate sample (tcp_rate.c's rate_sample); `interval` ≤ 0 marks it invalid. */
interface RateSample {
  delivered: number;
  interval: number;
  appLimited: boolean;
  priorDelivered: number;
  priorInFlight: number;
  rtt: number;
}

/**
 * BBR v1 as Linux runs it (tcp_bbr.c, with tcp_rate.c's delivery-rate samples and win_minmax.c's filter).
 * It estimates the bottleneck bandwidth (the maximum delivery rate over ten packet-timed rounds) and the
 * round-trip propagation time (the minimum RTT over ten seconds), paces at gain × bandwidth and caps the
 * window at gain × their product, cycling through startup, drain, bandwidth probing and RTT probing.
 * Left out: the policer model (lt_bw) and the ACK-aggregation allowance, which a loss-free link with
 * one packet per ACK never calls on, and fast recovery's packet conservation.
 */
class Bbr extends BaseController {
  private mode: Mode = 'startup';
  private cwnd: number;
  private readonly maxBw: WindowedFilter; // packets per ms
  private readonly tcpMinRtt = new WindowedFilter(TCP_MIN_RTT_WINDOW_MS, atMost, Infinity);
  private minRtt = Infinity;
  private minRttStamp = 0;
  private pacing: number; // packets per second
  private hasSeenRtt = false;
  private nextDeparture = 0; // when the pacer lets the next packet go
  private delivered = 0;
  private deliveredTime = 0;
  private firstSentTime = 0;
  private inFlight = 0;
  private appLimited = 0; // tp->app_limited: samples are app-limited until `delivered` passes it
  private readonly sent = new Map<number, SendState>();
  private round = 0;
  private roundStart = false;
  private nextRoundDelivered = 0;
  private fullBw = 0;
  private fullBwCount = 0;
  private filledPipe = false;
  private pacingGain = HIGH_GAIN;
  private cwndGain = HIGH_GAIN;
  private cycleIndex = 0;
  private cycleStamp = 0;
  private probeRttDone = -1;
  private probeRttRoundDone = false;
  private priorCwnd = 0;
  /** A timeout fired and no ACK has come since. */
  private afterTimeout = false;
  // time-rounds: rounds of one minimum RTT of time, and the ACKs of the last minimum RTT
  private now = 0;
  private filterRounds = 0;
  private readonly filterRound = { stamp: 0 };
  private readonly plateauRound = { stamp: 0 };
  private readonly recentAcks: number[] = [];
  private recentHead = 0;

  constructor(
    initialCwnd: number,
    bwRounds: number,
    private readonly probeBwGain: number,
    private readonly variant: Variant,
    private readonly rng: Rng,
  ) {
    super();
    this.cwnd = initialCwnd;
    this.maxBw = new WindowedFilter(bwRounds, atLeast, 0);
    // before any RTT sample Linux assumes 1 ms
    this.pacing = this.toPacing(initialCwnd, HIGH_GAIN);
  }

  windowSize(): number {
    return this.cwnd;
  }

  pacingRate(): number {
    return this.pacing;
  }

  onSend(seq: number, now: number): void {
    if (this.inFlight === 0) this.firstSentTime = this.deliveredTime = now;
    this.inFlight++;
    this.sent.set(seq, { delivered: this.delivered, deliveredTime: this.deliveredTime, firstSentTime: this.firstSentTime, sentAt: now, appLimited: this.appLimited !== 0 });
    this.nextDeparture = Math.max(this.nextDeparture, now) + 1000 / this.pacing;
  }

  onAck(ack: Ack): void {
    const state = this.sent.get(ack.seq);
    this.sent.delete(ack.seq);
    this.inFlight = ack.inFlight;
    if (!state) return; // nothing newly delivered
    this.now = ack.now;
    if (this.variant === 'time-rounds') this.countTime(ack.now);
    const rs = this.rateSample(state, ack);
    this.updateBandwidth(rs);
    this.updateCyclePhase(rs, ack.now);
    this.checkFullBandwidth(rs);
    this.checkDrain(ack);
    this.updateMinRtt(rs, ack);
    this.updateGains();
    this.setPacingRate(rs.rtt);
    this.setCwnd();
  }

  /** tcp_rate.c: delivered packets over the longer of the send and ACK phases; invalid under the minimum RTT. */
  private rateSample(state: SendState, ack: Ack): RateSample {
    const now = ack.now;
    const rtt = now - ack.sentAt;
    this.tcpMinRtt.update(now, rtt);
    this.delivered++;
    if (this.appLimited !== 0 && this.delivered > this.appLimited) this.appLimited = 0;
    this.deliveredTime = now;
    this.firstSentTime = state.sentAt;
    const interval = Math.max(state.sentAt - state.firstSentTime, now - state.deliveredTime);
    const valid = interval >= this.tcpMinRtt.value;
    return {
      delivered: this.delivered - state.delivered,
      interval: valid ? interval : -1,
      appLimited: state.appLimited,
      priorDelivered: state.delivered,
      priorInFlight: ack.inFlight + 1,
      rtt,
    };
  }

  /** bbr_update_bw: a round ends with the ACK of a packet sent after it began; app-limited samples only raise the max. */
  private updateBandwidth(rs: RateSample): void {
    this.roundStart = false;
    if (rs.interval <= 0) return;
    if (rs.priorDelivered >= this.nextRoundDelivered) {
      this.nextRoundDelivered = this.delivered;
      this.round++;
      this.roundStart = true;
    }
    const bw = rs.delivered / rs.interval;
    if (!rs.appLimited || bw >= this.maxBw.value) {
      if (this.roundEnded(this.filterRound, this.now)) this.filterRounds++;
      this.maxBw.update(this.variant === 'time-rounds' ? this.filterRounds : this.round, bw);
    }
  }

  private updateCyclePhase(rs: RateSample, now: number): void {
    if (this.mode !== 'probe-bw' || !this.phaseDone(rs, now)) return;
    this.cycleIndex = (this.cycleIndex + 1) % CYCLE.length;
    this.cycleStamp = now;
  }

  /** The probing phase lasts a minimum RTT and until its extra inflight is out; the draining one until the queue is gone. */
  private phaseDone(rs: RateSample, now: number): boolean {
    const fullLength = now - this.cycleStamp > this.minRtt;
    if (this.pacingGain === 1) return fullLength;
    const inflight = this.inNetworkAtDeparture(rs.priorInFlight, now);
    if (this.pacingGain > 1) return fullLength && inflight >= this.inflight(this.maxBw.value, this.pacingGain);
    return fullLength || inflight <= this.inflight(this.maxBw.value, 1);
  }

  /** Startup filled the pipe when three non-app-limited rounds in a row raised the bandwidth by less than 25%. */
  private checkFullBandwidth(rs: RateSample): void {
    if (this.filledPipe || rs.appLimited || !this.roundEnded(this.plateauRound, this.now)) return;
    if (this.maxBw.value >= this.fullBw * FULL_BW_GROWTH) {
      this.fullBw = this.maxBw.value;
      this.fullBwCount = 0;
      return;
    }
    this.filledPipe = ++this.fullBwCount >= FULL_BW_ROUNDS;
  }

  private checkDrain(ack: Ack): void {
    if (this.mode === 'startup' && this.filledPipe) this.mode = 'drain';
    if (this.mode === 'drain' && this.inNetworkAtDeparture(ack.inFlight, ack.now) <= this.inflight(this.maxBw.value, 1)) this.enterProbeBw(ack.now);
  }

  /** bbr_update_min_rtt: a sample that matches or beats the minimum renews it; ten seconds without one probe the RTT. */
  private updateMinRtt(rs: RateSample, ack: Ack): void {
    const now = ack.now;
    const expired = now > this.minRttStamp + MIN_RTT_WINDOW_MS;
    if (rs.rtt <= this.minRtt || expired) {
      this.minRtt = rs.rtt;
      this.minRttStamp = now;
    }
    if (expired && this.mode !== 'probe-rtt') {
      this.mode = 'probe-rtt';
      this.saveCwnd();
      this.probeRttDone = -1;
    }
    if (this.mode !== 'probe-rtt') return;
    // what is sent while probing says nothing of the bandwidth: mark it app-limited
    this.appLimited = this.delivered + ack.inFlight || 1;
    if (this.probeRttDone < 0 && ack.inFlight <= MIN_CWND) {
      this.probeRttDone = now + PROBE_RTT_MS;
      this.probeRttRoundDone = false;
      this.nextRoundDelivered = this.delivered;
    } else if (this.probeRttDone >= 0) {
      if (this.roundStart) this.probeRttRoundDone = true;
      if (this.probeRttRoundDone && now > this.probeRttDone) {
        this.minRttStamp = now;
        this.cwnd = Math.max(this.cwnd, this.priorCwnd);
        if (this.filledPipe) this.enterProbeBw(now);
        else this.mode = 'startup';
      }
    }
  }

  /** Linux starts the cycle at a random phase other than the draining one, so flows do not probe in step. */
  private enterProbeBw(now: number): void {
    this.mode = 'probe-bw';
    this.cycleIndex = (CYCLE.length - this.rng.int(CYCLE_RANDOM_PHASES)) % CYCLE.length;
    this.cycleStamp = now;
  }

  private updateGains(): void {
    if (this.mode === 'startup') this.pacingGain = this.cwndGain = HIGH_GAIN;
    else if (this.mode === 'drain') {
      this.pacingGain = DRAIN_GAIN;
      this.cwndGain = HIGH_GAIN;
    } else if (this.mode === 'probe-bw') {
      const g = CYCLE[this.cycleIndex];
      this.pacingGain = g > 1 ? this.probeBwGain : g < 1 ? 2 - this.probeBwGain : 1;
      this.cwndGain = CWND_GAIN;
    } else this.pacingGain = this.cwndGain = 1;
  }

  /** packets per ms and a gain → packets per second, 1% under */
  private toPacing(bw: number, gain: number): number {
    return bw * gain * PACING_MARGIN * 1000;
  }

  /** bbr_set_pacing_rate: from the first RTT, high gain × window ÷ RTT; in startup the rate only rises. */
  private setPacingRate(rtt: number): void {
    if (!this.hasSeenRtt) {
      this.hasSeenRtt = true;
      this.pacing = this.toPacing(this.cwnd / Math.max(rtt, 0.001), HIGH_GAIN);
    }
    const rate = this.toPacing(this.maxBw.value, this.pacingGain);
    if (this.filledPipe || rate > this.pacing) this.pacing = rate;
  }

  /** bbr_bdp: gain × bandwidth × minimum RTT, rounded up; ten packets before any RTT. */
  private bdp(bw: number, gain: number): number {
    return this.minRtt === Infinity ? INIT_CWND : Math.ceil(bw * this.minRtt * gain);
  }

  /**
   * bbr_quantization_budget: room for three TSO bursts (two packets each below about 100 packets per
   * second... one millisecond of packets above), rounded up to even, and two more while probing.
   */
  private quantization(cwnd: number): number {
    const even = (cwnd + 3 * this.tsoSegs() + 1) & ~1;
    return this.mode === 'probe-bw' && this.cycleIndex === 0 ? even + 2 : even;
  }

  /** bbr_tso_segs_goal: a millisecond of packets at the pacing rate, at least 1 (2 from 100 packets/s), at most 43 (64 KB). */
  private tsoSegs(): number {
    return Math.min(Math.max(Math.floor(this.pacing / 1024), this.pacing < 100 ? 1 : 2), 43);
  }

  private inflight(bw: number, gain: number): number {
    return this.quantization(this.bdp(bw, gain));
  }

  /** bbr_packets_in_net_at_edt: what will still be in the network when the pacer sends the next packet. */
  private inNetworkAtDeparture(inflightNow: number, now: number): number {
    const deliveredMeanwhile = Math.floor(this.maxBw.value * (Math.max(this.nextDeparture, now) - now));
    const atDeparture = inflightNow + (this.pacingGain > 1 ? this.tsoSegs() : 0);
    return deliveredMeanwhile >= atDeparture ? 0 : atDeparture - deliveredMeanwhile;
  }

  /** bbr_set_cwnd: grow by each packet ACKed toward gain × BDP; only once the pipe is full, cut down to it. */
  private setCwnd(): void {
    if (this.afterTimeout) {
      // The next ACK ends the timeout's episode: of a packet sent before it, it shows the timeout spurious
      // (Linux's F-RTO undoes it); of one sent after, everything outstanding is past. Either way Linux
      // leaves its loss state and restores the window it saved.
      this.afterTimeout = false;
      this.cwnd = Math.max(this.cwnd, this.priorCwnd);
    }
    const target = this.quantization(this.bdp(this.windowBandwidth(), this.cwndGain));
    const cutToTarget = this.filledPipe || (this.variant === 'time-rounds' && this.delivered >= INIT_CWND);
    if (cutToTarget) this.cwnd = Math.min(this.cwnd + 1, target);
    else if (this.cwnd < target || this.delivered < INIT_CWND) this.cwnd += 1;
    this.cwnd = Math.max(this.cwnd, MIN_CWND);
    if (this.mode === 'probe-rtt') this.cwnd = Math.min(this.cwnd, MIN_CWND);
  }

  /**
   * time-rounds: a round is a minimum RTT of time, as the paper's "ten round trips" reads on an empty
   * path, so that a queue cannot stretch it; and the ACKs of the last minimum RTT count what was delivered.
   */
  private countTime(now: number): void {
    this.recentAcks.push(now);
    while (this.recentAcks[this.recentHead] <= now - this.minRtt) this.recentHead++;
    if (this.recentHead > 1024 && this.recentHead * 2 > this.recentAcks.length) {
      this.recentAcks.splice(0, this.recentHead);
      this.recentHead = 0;
    }
  }

  /** Whether a round (a packet-timed one, or for time-rounds a minimum RTT of time since the last check) ended. */
  private roundEnded(timer: { stamp: number }, now: number): boolean {
    if (this.variant !== 'time-rounds') return this.roundStart;
    if (!(now - timer.stamp > this.minRtt)) return false;
    timer.stamp = now;
    return true;
  }

  /**
   * The bandwidth the window is built on. Linux: the maximum. time-rounds: no more than was delivered over
   * the last minimum RTT, so when the rate falls the window falls with it within one propagation RTT.
   */
  private windowBandwidth(): number {
    const max = this.maxBw.value;
    if (this.variant === 'linux-v1' || this.minRtt === Infinity) return max;
    return Math.min(max, (this.recentAcks.length - this.recentHead) / this.minRtt);
  }

  /**
   * bbr_save_cwnd: the window to go back to after probing the RTT or a timeout; while one of those
   * already holds a saved window, the larger of the two.
   */
  private saveCwnd(): void {
    this.priorCwnd = this.mode === 'probe-rtt' || this.afterTimeout ? Math.max(this.priorCwnd, this.cwnd) : this.cwnd;
  }

  onTimeout(): void {
    // Everything in flight is presumed lost: start again from a small window, keep the model, and (as
    // Linux entering its loss state) let startup's full-pipe check begin again from zero.
    this.saveCwnd();
    this.afterTimeout = true;
    this.cwnd = MIN_CWND;
    this.fullBw = 0;
  }

  estimates() {
    return { rttMin: this.minRtt, bandwidth: this.maxBw.value * 1000, pacingRate: this.pacing };
  }

  get state(): Mode {
    return this.mode;
  }
}

export const bbr = defineScheme({
  id: 'bbr',
  title: 'BBR v1',
  doc: 'Paces at the estimated bottleneck bandwidth and keeps about two bandwidth-delay products in flight (Linux’s BBR v1).',
  mode: 'window',
  params: [
    num('initialCwnd', 'packets', 1, 100, 1, 10, 'Window before the first estimate'),
    num('bwRounds', 'rounds', 2, 50, 1, 10, 'Rounds over which the bandwidth maximum is kept'),
    num('probeGain', '×', 1.05, 2, 0.05, 1.25, 'Pacing gain of the probing phase (the draining phase uses 2 − gain)'),
    choice('variant', VARIANTS, 'time-rounds', 'experimental'),
  ],
  create: (p, rng) => new Bbr(p.initialCwnd, p.bwRounds, p.probeGain, p.variant, rng),
});
