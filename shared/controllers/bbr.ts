import type { Rng } from '../sim/rng.ts';
import { AckAggregation, CYCLE, gains, HIGH_GAIN, inNetworkAtDeparture, type Mode, quantizationBudget } from './bbrSizing.ts';
import { DeliveryRate, RecentDeliveries, type RateSample } from './deliveryRate.ts';
import { BaseController, choice, defineScheme, num, type Ack } from './types.ts';
import { atLeast, WindowedFilter } from './windowedFilter.ts';

type Variant = (typeof VARIANTS)[number];

const VARIANTS = ['time-rounds', 'linux-v1'] as const;

const CYCLE_RANDOM_PHASES = 7;
const PACING_MARGIN = 0.99; // pace 1% below the estimate, so the queue tends to empty
const MIN_RTT_WINDOW_MS = 10_000;
const PROBE_RTT_MS = 200;
const MIN_CWND = 4;
const INIT_CWND = 10; // TCP_INIT_CWND
const FULL_BW_GROWTH = 1.25;
const FULL_BW_ROUNDS = 3;

/**
 * BBR v1 as Linux runs it (tcp_bbr.c, with tcp_rate.c's samples and win_minmax.c's filter): the bottleneck
 * bandwidth is the maximum delivery rate over ten packet-timed rounds, the propagation time the minimum RTT
 * over ten seconds; it paces at gain × bandwidth and caps the window at gain × their product (plus the
 * ACK-aggregation allowance), through startup, drain, bandwidth probing and RTT probing. Left out: the
 * policer model (lt_bw) and fast recovery's packet conservation, which need losses (the scheme takes none).
 *
 * variant=time-rounds (the default) departs from Linux in one respect: a round is a minimum RTT of time.
 * Linux's rounds are packet-timed, so they last as long as the queue: on Verizon LTE at 200 ms each way
 * they stretch to seconds, the ten-round maximum outlives a rate drop by tens of seconds, and cwnd_gain ×
 * that stale maximum keeps seconds of queue (AIMD then beats BBR on power at 100 and 200 ms, and on AT&T
 * 2016 at 20 ms). So under time-rounds the bandwidth filter and startup's plateau check count minimum RTTs
 * of time, and the window never exceeds gain × what was delivered over the last minimum RTT, in startup
 * too. At 200 ms neither the filter in time nor the window cap wins alone, each with the plateau check in
 * time (power 1.38 and 2.56 against AIMD's 2.77; both: 3.00). The probe-RTT round stays packet-timed.
 */
class Bbr extends BaseController {
  private mode: Mode = 'startup';
  private cwnd: number;
  private readonly rate = new DeliveryRate();
  private readonly aggregation = new AckAggregation();
  private readonly maxBw: WindowedFilter; // packets per ms
  private minRtt = Infinity;
  private minRttStamp = 0;
  private pacing: number; // packets per second
  private hasSeenRtt = false;
  private nextDeparture = 0; // when the pacer lets the next packet go
  private now = 0;
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
  // time-rounds: the filter's rounds and startup's, each a minimum RTT of time, and the last one's deliveries
  private filterRounds = 0;
  private readonly filterRound = { stamp: 0 };
  private readonly plateauRound = { stamp: 0 };
  private readonly recent = new RecentDeliveries();

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
    this.pacing = this.toPacing(initialCwnd, HIGH_GAIN); // before any RTT sample Linux assumes 1 ms
  }

  windowSize(): number {
    return this.cwnd;
  }

  pacingRate(): number {
    return this.pacing;
  }

  onSend(seq: number, now: number): void {
    this.rate.sent(seq, now);
    this.nextDeparture = Math.max(this.nextDeparture, now) + 1000 / this.pacing;
  }

  /** Linux's order: bandwidth, gain cycle, full pipe, drain, minimum RTT, gains, then pacing and window. */
  onAck(ack: Ack): void {
    const rs = this.rate.acked(ack);
    if (!rs) return;
    this.now = ack.now;
    if (this.variant === 'time-rounds') this.recent.add(ack.now, this.minRtt);
    this.updateBandwidth(rs);
    if (rs.interval > 0) this.aggregation.acked(this.now, this.maxBw.value, this.roundStart, this.cwnd);
    if (this.mode === 'probe-bw' && this.phaseDone(rs)) {
      this.cycleIndex = (this.cycleIndex + 1) % CYCLE.length;
      this.cycleStamp = this.now;
    }
    this.checkFullBandwidth(rs);
    if (this.mode === 'startup' && this.filledPipe) this.mode = 'drain';
    if (this.mode === 'drain' && this.inNetwork(ack.inFlight) <= this.inflight(this.maxBw.value, 1)) this.enterProbeBw();
    this.updateMinRtt(rs, ack.inFlight);
    this.updateGains();
    this.setPacingRate(rs.rtt);
    this.setCwnd();
  }

  /** bbr_update_bw: a round ends with the ACK of a packet sent after it began; app-limited samples only raise the max. */
  private updateBandwidth(rs: RateSample): void {
    this.roundStart = false;
    if (rs.interval <= 0) return;
    if (rs.priorDelivered >= this.nextRoundDelivered) {
      this.nextRoundDelivered = this.rate.delivered;
      this.round++;
      this.roundStart = true;
    }
    const bw = rs.delivered / rs.interval;
    if (rs.appLimited && bw < this.maxBw.value) return;
    if (this.roundEnded(this.filterRound)) this.filterRounds++;
    this.maxBw.update(this.variant === 'time-rounds' ? this.filterRounds : this.round, bw);
  }

  /** Whether a round ended: packet-timed (linux-v1), or a minimum RTT of time since `timer` last ended one. */
  private roundEnded(timer: { stamp: number }): boolean {
    if (this.variant !== 'time-rounds') return this.roundStart;
    if (!(this.now - timer.stamp > this.minRtt)) return false;
    timer.stamp = this.now;
    return true;
  }

  /** The probing phase lasts a minimum RTT and until its extra inflight is out; the draining one until the queue is gone. */
  private phaseDone(rs: RateSample): boolean {
    const fullLength = this.now - this.cycleStamp > this.minRtt;
    if (this.pacingGain === 1) return fullLength;
    const inflight = this.inNetwork(rs.priorInFlight);
    if (this.pacingGain > 1) return fullLength && inflight >= this.inflight(this.maxBw.value, this.pacingGain);
    return fullLength || inflight <= this.inflight(this.maxBw.value, 1);
  }

  /** Startup filled the pipe when three non-app-limited rounds in a row raised the bandwidth by less than 25%. */
  private checkFullBandwidth(rs: RateSample): void {
    if (this.filledPipe || rs.appLimited || !this.roundEnded(this.plateauRound)) return;
    if (this.maxBw.value >= this.fullBw * FULL_BW_GROWTH) {
      this.fullBw = this.maxBw.value;
      this.fullBwCount = 0;
      return;
    }
    this.filledPipe = ++this.fullBwCount >= FULL_BW_ROUNDS;
  }

  /** bbr_update_min_rtt: a sample that matches or beats the minimum renews it; ten seconds without one probe the RTT. */
  private updateMinRtt(rs: RateSample, inFlight: number): void {
    const expired = this.now > this.minRttStamp + MIN_RTT_WINDOW_MS;
    if (rs.rtt <= this.minRtt || expired) {
      this.minRtt = rs.rtt;
      this.minRttStamp = this.now;
    }
    if (expired && this.mode !== 'probe-rtt') {
      this.mode = 'probe-rtt';
      this.saveCwnd();
      this.probeRttDone = -1;
    }
    if (this.mode !== 'probe-rtt') return;
    this.rate.markAppLimited(inFlight); // a rate at four packets says nothing of the bandwidth
    if (this.probeRttDone < 0 && inFlight <= MIN_CWND) {
      // hold four packets for 200 ms and a round that starts now
      this.probeRttDone = this.now + PROBE_RTT_MS;
      this.probeRttRoundDone = false;
      this.nextRoundDelivered = this.rate.delivered;
    } else if (this.probeRttDone >= 0) {
      if (this.roundStart) this.probeRttRoundDone = true;
      if (this.probeRttRoundDone && this.now > this.probeRttDone) {
        this.minRttStamp = this.now;
        this.cwnd = Math.max(this.cwnd, this.priorCwnd);
        if (this.filledPipe) this.enterProbeBw();
        else this.mode = 'startup';
      }
    }
  }

  /** Linux starts the cycle at a random phase other than the draining one, so flows do not probe in step. */
  private enterProbeBw(): void {
    this.mode = 'probe-bw';
    this.cycleIndex = (CYCLE.length - this.rng.int(CYCLE_RANDOM_PHASES)) % CYCLE.length;
    this.cycleStamp = this.now;
  }

  private updateGains(): void {
    // Not a destructuring into fields: the editor's JavaScript parser (Lezer) refuses one, and this scheme's copy must load there.
    const [pacing, cwnd] = gains(this.mode, this.cycleIndex, this.probeBwGain);
    this.pacingGain = pacing;
    this.cwndGain = cwnd;
  }

  /** packets per ms and a gain → packets per second, 1% under */
  private toPacing(bw: number, gain: number): number {
    return bw * gain * PACING_MARGIN * 1000;
  }

  /** bbr_set_pacing_rate: from the first RTT, high gain × window ÷ RTT; until the pipe is full the rate only rises. */
  private setPacingRate(rtt: number): void {
    if (!this.hasSeenRtt) {
      this.hasSeenRtt = true;
      this.pacing = this.toPacing(this.cwnd / Math.max(rtt, 0.001), HIGH_GAIN);
    }
    const rate = this.toPacing(this.maxBw.value, this.pacingGain);
    if (this.filledPipe || rate > this.pacing) this.pacing = rate;
  }

  /** bbr_inflight: gain × bandwidth × minimum RTT rounded up (ten packets before any RTT), plus `extra` and the quantization budget. */
  private inflight = (bw: number, gain: number): number => this.quantization(this.bdp(bw, gain));

  private bdp(bw: number, gain: number): number {
    return this.minRtt === Infinity ? INIT_CWND : Math.ceil(bw * this.minRtt * gain);
  }

  private quantization(cwnd: number): number {
    return quantizationBudget(cwnd, this.pacing, this.mode === 'probe-bw' && this.cycleIndex === 0);
  }

  private inNetwork(inflight: number): number {
    return inNetworkAtDeparture(inflight, this.maxBw.value, Math.max(this.nextDeparture, this.now) - this.now, this.pacingGain > 1, this.pacing);
  }

  /**
   * The window's target before the quantization budget: gain × BDP plus the aggregation allowance, and
   * under time-rounds no more than gain × the packets delivered over the last minimum RTT.
   */
  private windowTarget(): number {
    const max = this.maxBw.value;
    const linux = this.bdp(max, this.cwndGain) + this.aggregation.allowance(max, this.filledPipe);
    if (this.variant !== 'time-rounds' || this.minRtt === Infinity) return linux;
    return Math.min(linux, this.bdp(this.recent.count / this.minRtt, this.cwndGain));
  }

  /** bbr_set_cwnd: grow by each packet ACKed toward the target; only once the pipe is full (time-rounds: always) cut down to it. */
  private setCwnd(): void {
    if (this.afterTimeout) {
      // The next ACK ends the timeout's episode: of a packet sent before it, it shows the timeout spurious
      // (Linux's F-RTO undoes it); of one sent after, everything outstanding is past. Either way Linux
      // leaves its loss state and restores the window it saved.
      this.afterTimeout = false;
      this.cwnd = Math.max(this.cwnd, this.priorCwnd);
    }
    const target = this.quantization(this.windowTarget());
    const delivered = this.rate.delivered;
    if (this.filledPipe || (this.variant === 'time-rounds' && delivered >= INIT_CWND)) this.cwnd = Math.min(this.cwnd + 1, target);
    else if (this.cwnd < target || delivered < INIT_CWND) this.cwnd += 1;
    this.cwnd = Math.max(this.cwnd, MIN_CWND);
    if (this.mode === 'probe-rtt') this.cwnd = Math.min(this.cwnd, MIN_CWND);
  }

  /** bbr_save_cwnd: while probing the RTT or after a timeout a window is saved already, keep the larger. */
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
  doc: 'Paces at the estimated bottleneck bandwidth and keeps about two bandwidth-delay products in flight (Linux’s BBR v1). variant=linux-v1 is Linux’s; the default, time-rounds, counts rounds in minimum RTTs of time and keeps the window within gain × what the last minimum RTT delivered, because on LTE at 100 ms or more each way Linux’s packet-timed rounds stretch to seconds and its stale maximum holds seconds of queue after the rate falls (AIMD then wins on power).',
  mode: 'window',
  params: [
    num('initialCwnd', 'packets', 1, 100, 1, 10, 'Window before the first estimate'),
    num('bwRounds', 'rounds', 2, 50, 1, 10, 'Rounds over which the bandwidth maximum is kept (packet-timed, or minimum RTTs of time under time-rounds)'),
    num('probeGain', '×', 1.05, 2, 0.05, 1.25, 'Pacing gain of the probing phase (the draining phase uses 2 − gain)'),
    choice('variant', VARIANTS, 'time-rounds', 'linux-v1: Linux’s packet-timed rounds; time-rounds: rounds of one minimum RTT of time, and a window within gain × the last minimum RTT’s deliveries'),
  ],
  create: (p, rng) => new Bbr(p.initialCwnd, p.bwRounds, p.probeGain, p.variant, rng),
});
