import { BaseController, defineScheme, num, type Ack, type EcnCapability } from './types.ts';
import { RtoEstimator } from './rto.ts';

/**
 * TCP Reno: slow start to ssthresh, then one packet per window of ACKs; three duplicate ACKs halve the
 * window (the sender retransmits), a timeout restarts from one packet. The RTO follows RFC 6298. With
 * ECN on it sends ECT(0) and halves once per window on a CE echo, as on a loss (RFC 3168 §6.1.2).
 */
export class Reno extends BaseController {
  readonly ecn: EcnCapability = 'ect0';
  protected w = 1;
  protected ssthresh: number;
  protected readonly rto: RtoEstimator;
  private lastCumulative = -1;
  protected recoveryUntil = -1;
  protected highestSent = -1;

  constructor(ssthresh: number, minRto: number) {
    super();
    this.ssthresh = ssthresh;
    this.rto = new RtoEstimator(minRto);
  }

  windowSize(): number {
    return this.w;
  }

  onAck(ack: Ack): void {
    this.rto.sample(ack.now - ack.sentAt);
    if (ack.ce) this.onEcho(ack);
    if (ack.cumulative <= this.lastCumulative) return; // a duplicate ACK grows nothing
    this.lastCumulative = ack.cumulative;
    // Recovery lasts until everything sent before the loss was detected is acknowledged.
    const recovering = this.recoveryUntil >= 0 && ack.cumulative <= this.recoveryUntil;
    if (!recovering) this.recoveryUntil = -1;
    this.grow(ack, recovering);
  }

  /** Slow start, then one packet per window of ACKs; nothing while recovering. */
  protected grow(_ack: Ack, recovering: boolean): void {
    if (recovering) return;
    if (this.w < this.ssthresh) this.w += 1;
    else this.w += 1 / this.w;
  }

  /** RFC 3168: an echo counts as a loss, once per window, without a retransmission. */
  protected onEcho(ack: Ack): void {
    this.onLoss(ack.now, ack.seq);
  }

  onLoss(_now: number, _seq: number): void {
    if (this.recoveryUntil >= 0) return; // one halving per loss episode
    this.cut(this.w / 2);
  }

  /** Sets ssthresh and the window to `to` (at least 2) until everything sent so far is acknowledged. */
  protected cut(to: number): void {
    this.ssthresh = Math.max(2, to);
    this.w = this.ssthresh;
    this.recoveryUntil = this.highestSent;
  }

  onSend(seq: number): void {
    if (seq > this.highestSent) this.highestSent = seq;
  }

  onTimeout(): void {
    this.ssthresh = Math.max(2, this.w / 2);
    this.w = 1;
    this.recoveryUntil = -1;
    this.rto.back();
  }

  timeoutMs(): number {
    return this.rto.rto;
  }

  estimates() {
    return { ssthresh: this.ssthresh, srtt: this.rto.srtt, rto: this.rto.rto };
  }
}

export const reno = defineScheme({
  id: 'reno',
  title: 'TCP Reno',
  doc: 'Slow start, congestion avoidance, fast retransmit on 3 duplicate ACKs, RFC 6298 timeouts.',
  mode: 'window',
  params: [
    num('ssthresh', 'packets', 2, 10000, 1, 64, 'Initial slow-start threshold'),
    num('minRto', 'ms', 10, 1000, 10, 1000, 'Lower bound of the retransmission timeout (RFC 6298: 1 s; Linux: 200 ms)'),
  ],
  create: (p) => new Reno(p.ssthresh, p.minRto),
});
