import { BaseController, choice, defineScheme, MinRtt, num, OncePerWindow, Rounds, type Ack, type EcnCapability } from './types.ts';
import { RtoEstimator } from './rto.ts';

/** HyStart as tcp_cubic.c runs it: the samples a round's delay check takes, and the window it starts at. */
const HYSTART_MIN_SAMPLES = 8;
const HYSTART_LOW_WINDOW = 16;
const HYSTART_DELAY_MIN = 4;
const HYSTART_DELAY_MAX = 16;
/** ACKs this close together (ms) continue an ACK train. */
const HYSTART_ACK_DELTA = 2;

/**
 * CUBIC as Linux runs it (tcp_cubic.c, RFC 8312): slow start that HyStart ends when a round's ACK train
 * spans half the minimum RTT or the round's RTT rises above the minimum by an eighth of it (clamped to
 * 4–16 ms); after a loss the window heads for W(t + RTTmin) = C(t + RTTmin − K)³ + Wmax, never slower than
 * the window Reno would have reached counting the same ACKs (the TCP-friendly region), at most one packet
 * per two ACKs, with fast convergence; one reduction per window of packets. With no loss (an infinite
 * queue) nothing bounds the curve: the window grows without end, as Linux's would without a receive window.
 * With ECN on it sends ECT(0), and a CE echo is a loss (RFC 3168: once per window, no retransmission).
 */
class Cubic extends BaseController {
  readonly ecn: EcnCapability = 'ect0';
  private w = 1;
  private ssthresh = Infinity;
  private wMax = 0;
  private epochStart = -1;
  private k = 0;
  private originPoint = 0;
  private readonly rto: RtoEstimator;
  private readonly rttMin = new MinRtt();
  private readonly episode = new OncePerWindow();
  private lastCumulative = -1;
  private readonly rounds = new Rounds();
  private roundSamples = 0;
  private roundMinRtt = Infinity;
  private roundStart = -1;
  private lastTrainAck = -1;
  /** Reno's window counted over the same ACKs since the epoch began (tcp_cubic.c's tcp_cwnd and ack_cnt). */
  private renoW = 0;
  private renoAcks = 0;

  constructor(
    private readonly c: number,
    private readonly beta: number,
    minRto: number,
    private readonly hystart: boolean,
  ) {
    super();
    this.rto = new RtoEstimator(minRto);
  }

  windowSize(): number {
    return this.w;
  }

  onSend(seq: number): void {
    this.rounds.sent(seq);
    this.episode.sent(seq);
  }

  onAck(ack: Ack): void {
    const rtt = this.rttMin.observe(ack);
    this.rto.sample(rtt);
    if (ack.ce) this.onLoss(ack.now, ack.seq);
    if (ack.cumulative <= this.lastCumulative) return; // a duplicate ACK grows nothing
    this.lastCumulative = ack.cumulative;
    // as in Linux, HyStart sees the ACK before slow start counts it: the ACK that ends slow start grows as
    // congestion avoidance does
    if (this.hystart && this.w < this.ssthresh) this.hystartSample(ack, rtt);
    if (this.w < this.ssthresh) this.w += 1;
    else this.congestionAvoidance(ack.now);
  }

  /**
   * HyStart (tcp_cubic.c's hystart_update): a new round starts its ACK train and its RTT samples; slow
   * start ends when the train (ACKs at most 2 ms apart) spans more than half the minimum RTT, or when the
   * least of the round's first eight RTTs exceeds the minimum by an eighth of it (4–16 ms).
   */
  private hystartSample(ack: Ack, rtt: number): void {
    if (this.rounds.ended(ack.seq)) {
      this.roundStart = this.lastTrainAck = ack.now;
      this.roundMinRtt = Infinity;
      this.roundSamples = 0;
    }
    if (this.w < HYSTART_LOW_WINDOW) return;
    const delayMin = this.rttMin.value;
    if (ack.now - this.lastTrainAck <= HYSTART_ACK_DELTA) {
      this.lastTrainAck = ack.now;
      if (ack.now - this.roundStart > delayMin / 2) return this.leaveSlowStart();
    }
    if (this.roundSamples < HYSTART_MIN_SAMPLES) {
      this.roundSamples++;
      if (rtt < this.roundMinRtt) this.roundMinRtt = rtt;
    } else if (this.roundMinRtt > delayMin + Math.min(HYSTART_DELAY_MAX, Math.max(HYSTART_DELAY_MIN, delayMin / 8))) {
      this.leaveSlowStart();
    }
  }

  private leaveSlowStart(): void {
    this.ssthresh = this.w;
  }

  private congestionAvoidance(now: number): void {
    if (this.epochStart < 0) {
      this.epochStart = now;
      if (this.w < this.wMax) {
        this.k = Math.cbrt((this.wMax - this.w) / this.c);
        this.originPoint = this.wMax;
      } else {
        this.k = 0;
        this.originPoint = this.w;
      }
      this.renoW = this.w;
      this.renoAcks = 0;
    }
    // Linux aims one minimum RTT ahead: the window to be at when this ACK's successor returns
    const t = (now - this.epochStart + this.rttMin.value) / 1000;
    const target = this.c * Math.pow(t - this.k, 3) + this.originPoint;
    // ACKs per one-packet increase, as tcp_cubic.c counts: towards the target, or a probe of 1% per RTT
    let cnt = target > this.w ? this.w / (target - this.w) : 100 * this.w;
    // with no loss yet the curve starts flat: grow at least 5% per RTT
    if (this.wMax === 0 && cnt > 20) cnt = 20;
    // Reno grows 3(1 − β)/(1 + β) packets per window of ACKs: counted in ACKs, not in minimum RTTs, so a
    // deep queue does not make it race ahead
    this.renoAcks++;
    const acksPerPacket = (this.w * (1 + this.beta)) / (3 * (1 - this.beta));
    while (this.renoAcks > acksPerPacket) {
      this.renoAcks -= acksPerPacket;
      this.renoW++;
    }
    if (this.renoW > this.w) cnt = Math.min(cnt, this.w / (this.renoW - this.w));
    // never more than one packet per two ACKs (1.5× per RTT)
    this.w += 1 / Math.max(cnt, 2);
  }

  onLoss(_now: number, seq: number): void {
    if (!this.episode.fresh(seq)) return;
    // fast convergence: a flow losing below its last maximum leaves room for newer flows
    this.wMax = this.w < this.wMax ? (this.w * (1 + this.beta)) / 2 : this.w;
    this.w = Math.max(2, this.w * this.beta);
    this.ssthresh = this.w;
    this.epochStart = -1;
  }

  onTimeout(): void {
    // Linux: ssthresh from the same β, then the Loss state resets CUBIC (no Wmax) and re-arms HyStart
    this.ssthresh = Math.max(2, this.w * this.beta);
    this.wMax = 0;
    this.w = 1;
    this.epochStart = -1;
    this.episode.reset();
    this.rto.back();
  }

  timeoutMs(): number {
    return this.rto.rto;
  }

  estimates() {
    return { ssthresh: this.ssthresh, srtt: this.rto.srtt, rto: this.rto.rto, rttMin: this.rttMin.value };
  }
}

export const cubic = defineScheme({
  id: 'cubic',
  title: 'CUBIC',
  doc: 'Cubic window growth around the window of the last loss, HyStart slow start (RFC 8312, Linux). Only a loss bounds it: on the contest’s infinite queue the window grows all run (delay95 35.7 s on Verizon LTE), as Linux’s would.',
  mode: 'window',
  params: [
    num('c', '', 0.1, 2, 0.05, 0.4, 'Cubic scaling constant C'),
    num('beta', '', 0.5, 0.9, 0.05, 0.7, 'Window kept after a loss'),
    num('minRto', 'ms', 10, 1000, 10, 200, 'Lower bound of the retransmission timeout (Linux: 200 ms)'),
    choice('hystart', ['on', 'off'], 'on', 'HyStart ends slow start when a round’s ACK train spans half the minimum RTT or its RTT rises'),
  ],
  create: (p) => new Cubic(p.c, p.beta, p.minRto, p.hystart === 'on'),
});
