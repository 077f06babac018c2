import { BaseController, defineScheme, num, type Ack } from './types.ts';
import { RtoEstimator } from './rto.ts';

/**
 * TCP Reno: slow start to ssthresh, then one packet per window of ACKs; three duplicate ACKs halve the
 * window (the sender retransmits), a timeout restarts from one packet. The RTO follows RFC 6298. With
 * ECN on it sends ECT(0) and halves once per window on a CE echo, as on a loss (RFC 3168 §6.1.2).
 */
class Reno extends BaseController {
  readonly ecn = 'ect0';
  private w = 1;
  private ssthresh: number;
  private readonly rto: RtoEstimator;
  private lastCumulative = -1;
  private recoveryUntil = -1;
  private highestSent = -1;

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
    if (ack.ce) this.onLoss(ack.now, ack.seq); // RFC 3168: an echo is a loss, once per window, without a retransmission
    if (ack.cumulative <= this.lastCumulative) return; // a duplicate ACK grows nothing
    this.lastCumulative = ack.cumulative;
    if (this.recoveryUntil >= 0) {
      // Recovery lasts until everything sent before the loss was detected is acknowledged.
      if (ack.cumulative <= this.recoveryUntil) return;
      this.recoveryUntil = -1;
    }
    if (this.w < this.ssthresh) this.w += 1;
    else this.w += 1 / this.w;
  }

  onLoss(_now: number, _seq: number): void {
    if (this.recoveryUntil >= 0) return; // one halving per loss episode
    this.ssthresh = Math.max(2, this.w / 2);
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
