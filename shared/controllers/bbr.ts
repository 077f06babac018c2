import type { Rng } from '../sim/rng.ts';
import { BaseController, defineScheme, num, type Ack } from './types.ts';

type Mode = 'startup' | 'drain' | 'probe-bw' | 'probe-rtt';

const STARTUP_GAIN = 2 / Math.LN2;
const CYCLE = [1.25, 0.75, 1, 1, 1, 1, 1, 1];
const RTPROP_WINDOW_MS = 10_000;
const PROBE_RTT_MS = 200;
const MIN_CWND = 4;

/** What the sender noted when it sent a packet, as Linux's tcp_rate.c does. */
interface SendState {
  delivered: number;
  deliveredTime: number;
  firstSentTime: number;
  sentAt: number;
}

/**
 * BBR v1: estimates the bottleneck bandwidth (windowed max of delivery rate over ten rounds) and the
 * round-trip propagation time (windowed min over ten seconds), paces at gain × bandwidth and caps the
 * window at gain × their product, cycling through startup, drain, bandwidth probing and RTT probing.
 *
 * Rounds are packet-timed, as Linux counts them, so they stretch with the queue: on Verizon LTE at 200 ms
 * each way startup's three flat rounds take four seconds, and when the rate falls from 10 to 2 Mbit/s the
 * old maximum holds two of its bandwidth-delay products in flight for ten seconds more. Counting the window
 * in propagation RTTs instead (the paper's "six to ten RTTs") wins at 100 ms but loses on AT&T 2016 at
 * 20 ms and still at 200 ms, so this keeps Linux's rounds and its help says where it loses.
 */
class Bbr extends BaseController {
  private mode: Mode = 'startup';
  private cwnd: number;
  private btlBw = 0; // packets per ms
  private readonly bwByRound: { round: number; rate: number }[] = [];
  private rtProp = Infinity;
  private rtPropStamp = 0;
  private delivered = 0;
  private deliveredTime = 0;
  private firstSentTime = 0;
  private inFlight = 0;
  private readonly sent = new Map<number, SendState>();
  private round = 0;
  private nextRoundDelivered = 0;
  private fullBw = 0;
  private fullBwCount = 0;
  private filledPipe = false;
  private pacingGain = STARTUP_GAIN;
  private cwndGain = STARTUP_GAIN;
  private cycleIndex = 0;
  private cycleStamp = 0;
  private probeRttDone = -1;
  private probeRttRound = -1;
  private priorCwnd = 0;
  /** A timeout fired and no ACK has come since. */
  private afterTimeout = false;

  constructor(
    initialCwnd: number,
    private readonly bwRounds: number,
    private readonly probeBwGain: number,
    private readonly rng: Rng,
  ) {
    super();
    this.cwnd = initialCwnd;
  }

  windowSize(): number {
    return this.cwnd;
  }

  pacingRate(): number {
    return this.btlBw > 0 ? this.pacingGain * this.btlBw * 1000 : Infinity;
  }

  onSend(seq: number, now: number): void {
    if (this.inFlight === 0) this.firstSentTime = this.deliveredTime = now;
    this.inFlight++;
    this.sent.set(seq, { delivered: this.delivered, deliveredTime: this.deliveredTime, firstSentTime: this.firstSentTime, sentAt: now });
  }

  onAck(ack: Ack): void {
    const now = ack.now;
    this.delivered++;
    this.deliveredTime = now;
    this.inFlight = ack.inFlight;
    const state = this.sent.get(ack.seq);
    this.sent.delete(ack.seq);
    if (state) this.firstSentTime = state.sentAt;
    let roundStart = false;
    if (state && state.delivered >= this.nextRoundDelivered) {
      this.nextRoundDelivered = this.delivered;
      this.round++;
      roundStart = true;
    }
    const rtt = now - ack.sentAt;
    const rtPropExpired = now > this.rtPropStamp + RTPROP_WINDOW_MS;
    if (rtt < this.rtProp || rtPropExpired) {
      this.rtProp = rtt;
      this.rtPropStamp = now;
    }
    if (this.afterTimeout) {
      // The next ACK ends the timeout's episode: of a packet sent before it, it shows the timeout spurious
      // (Linux's F-RTO undoes it); of one sent after, everything outstanding is past. Either way Linux
      // leaves its loss state and restores the window it saved.
      this.afterTimeout = false;
      this.cwnd = Math.max(this.cwnd, this.priorCwnd);
    }
    if (state) this.updateBandwidth(state, now);
    this.updateMode(ack, roundStart, rtPropExpired);
    this.updateCwnd();
  }

  /**
   * A delivery-rate sample as tcp_rate.c takes it: delivered packets over the longer of the send and ACK
   * intervals, and no sample over less than the minimum RTT (tcp_rate.c discards those: a burst of
   * compressed ACKs, or a send interval that is too short, would overstate the rate).
   */
  private updateBandwidth(state: SendState, now: number): void {
    const interval = Math.max(state.sentAt - state.firstSentTime, now - state.deliveredTime);
    if (interval <= 0 || interval < this.rtProp) return;
    const rate = (this.delivered - state.delivered) / interval;
    const last = this.bwByRound[this.bwByRound.length - 1];
    if (last && last.round === this.round) last.rate = Math.max(last.rate, rate);
    else this.bwByRound.push({ round: this.round, rate });
    while (this.bwByRound.length > 0 && this.bwByRound[0].round <= this.round - this.bwRounds) this.bwByRound.shift();
    this.btlBw = this.bwByRound.reduce((m, s) => Math.max(m, s.rate), 0);
  }

  private get bdp(): number {
    return this.rtProp === Infinity || this.btlBw === 0 ? this.cwnd : this.btlBw * this.rtProp;
  }

  private updateMode(ack: Ack, roundStart: boolean, rtPropExpired: boolean): void {
    const now = ack.now;
    if (this.mode === 'startup' && roundStart) {
      if (this.btlBw >= this.fullBw * 1.25) {
        this.fullBw = this.btlBw;
        this.fullBwCount = 0;
      } else if (++this.fullBwCount >= 3) {
        this.filledPipe = true;
        this.setMode('drain', now);
      }
    }
    if (this.mode === 'drain' && ack.inFlight <= this.bdp) this.setMode('probe-bw', now);
    if (this.mode === 'probe-bw' && this.phaseDone(ack)) {
      this.cycleIndex = (this.cycleIndex + 1) % CYCLE.length;
      this.cycleStamp = now;
      this.pacingGain = this.gainOfPhase();
    }
    if (rtPropExpired && this.mode !== 'probe-rtt') {
      this.setMode('probe-rtt', now);
      this.saveCwnd();
      this.probeRttDone = -1;
    }
    if (this.mode === 'probe-rtt') {
      if (this.probeRttDone < 0 && ack.inFlight <= MIN_CWND) {
        this.probeRttDone = now + PROBE_RTT_MS;
        this.probeRttRound = this.round;
      } else if (this.probeRttDone >= 0 && this.round > this.probeRttRound && now >= this.probeRttDone) {
        this.rtPropStamp = now;
        this.cwnd = Math.max(this.cwnd, this.priorCwnd);
        this.setMode(this.filledPipe ? 'probe-bw' : 'startup', now);
      }
    }
  }

  private gainOfPhase(): number {
    const g = CYCLE[this.cycleIndex];
    return g === 1.25 ? this.probeBwGain : g === 0.75 ? 2 - this.probeBwGain : 1;
  }

  private phaseDone(ack: Ack): boolean {
    const elapsed = ack.now - this.cycleStamp > this.rtProp;
    if (this.pacingGain > 1) return elapsed && ack.inFlight >= this.pacingGain * this.bdp;
    if (this.pacingGain < 1) return elapsed || ack.inFlight <= this.bdp;
    return elapsed;
  }

  private setMode(mode: Mode, now: number): void {
    this.mode = mode;
    switch (mode) {
      case 'startup':
        this.pacingGain = this.cwndGain = STARTUP_GAIN;
        break;
      case 'drain':
        this.pacingGain = 1 / STARTUP_GAIN;
        this.cwndGain = STARTUP_GAIN;
        break;
      case 'probe-bw':
        // Linux starts at a random phase other than the draining one, so flows do not probe in step
        this.cycleIndex = (CYCLE.length - this.rng.int(7)) % CYCLE.length;
        this.cycleStamp = now;
        this.pacingGain = this.gainOfPhase();
        this.cwndGain = 2;
        break;
      case 'probe-rtt':
        this.pacingGain = this.cwndGain = 1;
        break;
    }
  }

  private updateCwnd(): void {
    if (this.mode === 'probe-rtt') {
      this.cwnd = MIN_CWND;
      return;
    }
    const target = this.cwndGain * this.bdp;
    if (this.filledPipe) this.cwnd = Math.min(this.cwnd + 1, target);
    else if (this.cwnd < target || this.delivered < 10) this.cwnd += 1;
    this.cwnd = Math.max(MIN_CWND, this.cwnd);
  }

  /**
   * Linux's bbr_save_cwnd: the window to go back to after probing the RTT or a timeout; while one of those
   * already holds a saved window, the larger of the two.
   */
  private saveCwnd(): void {
    this.priorCwnd = this.mode === 'probe-rtt' || this.afterTimeout ? Math.max(this.priorCwnd, this.cwnd) : this.cwnd;
  }

  onTimeout(): void {
    // Everything in flight is presumed lost: start again from a small window and keep the model.
    this.saveCwnd();
    this.afterTimeout = true;
    this.cwnd = MIN_CWND;
  }

  estimates() {
    return { rttMin: this.rtProp, bandwidth: this.btlBw * 1000, pacingRate: this.pacingRate() };
  }

  get state(): Mode {
    return this.mode;
  }
}

export const bbr = defineScheme({
  id: 'bbr',
  title: 'BBR v1',
  doc: 'Paces at the estimated bottleneck bandwidth and keeps about two bandwidth-delay products in flight (Linux’s BBR v1). Its bandwidth is a maximum over ten rounds, and a round lasts as long as the queue it builds: when the LTE rate falls at 100 ms or more each way, the stale maximum keeps seconds of queue and AIMD beats it on power.',
  mode: 'window',
  params: [
    num('initialCwnd', 'packets', 1, 100, 1, 10, 'Window before the first estimate'),
    num('bwRounds', 'rounds', 2, 50, 1, 10, 'Rounds over which the bandwidth maximum is kept'),
    num('probeGain', '×', 1.05, 2, 0.05, 1.25, 'Pacing gain of the probing phase (the draining phase uses 2 − gain)'),
  ],
  create: (p, rng) => new Bbr(p.initialCwnd, p.bwRounds, p.probeGain, rng),
});
