import { BaseController, choice, defineScheme, MinRtt, num, OncePerWindow, Rounds, type Ack } from './types.ts';
import { RtoEstimator } from './rto.ts';

/** HyStart (Linux tcp_cubic.c): RTT samples taken at the start of each round, and the window it starts at. */
const HYSTART_MIN_SAMPLES = 8;
const HYSTART_LOW_WINDOW = 16;
const HYSTART_DELAY_MIN = 4;
const HYSTART_DELAY_MAX = 16;

/**
 * CUBIC as Linux runs it (RFC 8312, tcp_cubic.c): slow start that HyStart ends when the RTT of a round
 * rises by an eighth of the last round's (clamped to 4–16 ms); after a loss the window heads for
 * W(t + RTTmin) = C(t + RTTmin − K)³ + Wmax, never below the window Reno would have reached (the
 * TCP-friendly region), at most one packet per two ACKs, with fast convergence; one reduction per
 * window of packets.
 */
class Cubic extends BaseController {
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
  private lastRoundMinRtt = Infinity;

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
    if (ack.cumulative <= this.lastCumulative) return; // a duplicate ACK grows nothing
    this.lastCumulative = ack.cumulative;
    if (this.w < this.ssthresh) {
      this.w += 1;
      if (this.hystart) this.hystartSample(ack.seq, rtt);
      return;
    }
    this.congestionAvoidance(ack.now);
  }

  /** HyStart's delay increase: leave slow start when this round's early RTTs rose clearly above the last round's. */
  private hystartSample(seq: number, rtt: number): void {
    if (this.rounds.ended(seq)) {
      this.lastRoundMinRtt = this.roundMinRtt;
      this.roundMinRtt = Infinity;
      this.roundSamples = 0;
    }
    if (this.roundSamples >= HYSTART_MIN_SAMPLES) return;
    this.roundSamples++;
    if (rtt < this.roundMinRtt) this.roundMinRtt = rtt;
    if (this.roundSamples < HYSTART_MIN_SAMPLES || this.w < HYSTART_LOW_WINDOW || this.lastRoundMinRtt === Infinity) return;
    const threshold = Math.min(HYSTART_DELAY_MAX, Math.max(HYSTART_DELAY_MIN, this.lastRoundMinRtt / 8));
    if (this.roundMinRtt >= this.lastRoundMinRtt + threshold) this.ssthresh = this.w;
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
    }
    // Linux aims one minimum RTT ahead: the window to be at when this ACK's successor returns
    const t = (now - this.epochStart + this.rttMin.value) / 1000;
    const target = this.c * Math.pow(t - this.k, 3) + this.originPoint;
    // ACKs per one-packet increase, as tcp_cubic.c counts: towards the target, or a probe of 1% per RTT
    let cnt = target > this.w ? this.w / (target - this.w) : 100 * this.w;
    // with no loss yet the curve starts flat: grow at least 5% per RTT
    if (this.wMax === 0 && cnt > 20) cnt = 20;
    const elapsed = (now - this.epochStart) / 1000;
    const reno = this.wMax * this.beta + ((3 * (1 - this.beta)) / (1 + this.beta)) * (elapsed / (this.rttMin.value / 1000));
    if (reno > this.w) cnt = Math.min(cnt, this.w / (reno - this.w));
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
    this.wMax = this.w;
    this.ssthresh = Math.max(2, this.w * this.beta);
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
  doc: 'Cubic window growth around the window of the last loss, HyStart slow start (RFC 8312, Linux).',
  mode: 'window',
  params: [
    num('c', '', 0.1, 2, 0.05, 0.4, 'Cubic scaling constant C'),
    num('beta', '', 0.5, 0.9, 0.05, 0.7, 'Window kept after a loss'),
    num('minRto', 'ms', 10, 1000, 10, 200, 'Lower bound of the retransmission timeout (Linux: 200 ms)'),
    choice('hystart', ['on', 'off'], 'on', 'HyStart ends slow start when the RTT of a round rises'),
  ],
  create: (p) => new Cubic(p.c, p.beta, p.minRto, p.hystart === 'on'),
});
