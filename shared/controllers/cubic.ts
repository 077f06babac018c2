import { BaseController, num, type Ack, type Scheme } from './types.ts';
import { RtoEstimator } from './rto.ts';

/**
 * CUBIC (RFC 8312): after a loss the window follows W(t) = C(t − K)³ + Wmax, never below the window
 * Reno would have reached in the same time (the TCP-friendly region).
 */
class Cubic extends BaseController {
  private w = 1;
  private ssthresh = Infinity;
  private wMax = 0;
  private epochStart = -1;
  private k = 0;
  private readonly rto: RtoEstimator;
  private lastCumulative = -1;

  constructor(private readonly c: number, private readonly beta: number, minRto: number) {
    super();
    this.rto = new RtoEstimator(minRto);
  }

  windowSize(): number {
    return this.w;
  }

  onAck(ack: Ack): void {
    const rtt = ack.now - ack.sentAt;
    this.rto.sample(rtt);
    if (ack.cumulative <= this.lastCumulative) return; // a duplicate ACK grows nothing
    this.lastCumulative = ack.cumulative;
    if (this.w < this.ssthresh) {
      this.w += 1;
      return;
    }
    if (this.epochStart < 0) {
      this.epochStart = ack.now;
      if (this.w < this.wMax) this.k = Math.cbrt((this.wMax - this.w) / this.c);
      else {
        this.k = 0;
        this.wMax = this.w;
      }
    }
    const t = (ack.now - this.epochStart) / 1000;
    const target = this.c * Math.pow(t - this.k, 3) + this.wMax;
    const srtt = Math.max(1e-3, this.rto.srtt / 1000);
    const reno = this.wMax * this.beta + ((3 * (1 - this.beta)) / (1 + this.beta)) * (t / srtt);
    const goal = Math.max(target, reno);
    if (goal > this.w) this.w += (goal - this.w) / this.w;
    else this.w += 0.01 / this.w;
  }

  onLoss(): void {
    this.wMax = this.w;
    this.w = Math.max(2, this.w * this.beta);
    this.ssthresh = this.w;
    this.epochStart = -1;
  }

  onTimeout(): void {
    this.wMax = this.w;
    this.ssthresh = Math.max(2, this.w * this.beta);
    this.w = 1;
    this.epochStart = -1;
    this.rto.back();
  }

  timeoutMs(): number {
    return this.rto.rto;
  }

  estimates() {
    return { ssthresh: this.ssthresh, srtt: this.rto.srtt, rto: this.rto.rto };
  }
}

export const cubic: Scheme = {
  id: 'cubic',
  title: 'CUBIC',
  doc: 'Cubic window growth around the window of the last loss (RFC 8312).',
  mode: 'window',
  params: [
    num('c', '', 0.1, 2, 0.05, 0.4, 'Cubic scaling constant C'),
    num('beta', '', 0.5, 0.9, 0.05, 0.7, 'Window kept after a loss'),
    num('minRto', 'ms', 10, 1000, 10, 200, 'Lower bound of the retransmission timeout'),
  ],
  create: (p) => new Cubic(p.c as number, p.beta as number, p.minRto as number),
};
