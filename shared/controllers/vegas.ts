import { RtoEstimator } from './rto.ts';
import { BaseController, defineScheme, num, OncePerWindow, Rounds, type Ack } from './types.ts';

/**
 * TCP Vegas (Brakmo & Peterson 1995): once per round trip compare the expected rate w/baseRTT with the
 * actual w/RTT, RTT being the smallest of the round. The difference in packets queued,
 * diff = (expected − actual) × baseRTT = w·(RTT − baseRTT)/RTT, steers the window: below alpha +1, above
 * beta −1. Slow start doubles the window every other round while diff stays under gamma, and leaves at
 * min(w, w·baseRTT/RTT + 1) as Linux's tcp_vegas.c does. A detected loss halves the window, a timeout
 * restarts from 2 packets.
 */
class Vegas extends BaseController {
  private w = 2;
  private ssthresh = Infinity;
  private baseRtt = Infinity;
  private roundMinRtt = Infinity;
  private readonly rounds = new Rounds();
  private growThisRound = true;
  private diff = 0;
  private readonly rto: RtoEstimator;
  private readonly episode = new OncePerWindow();

  constructor(
    private readonly alpha: number,
    private readonly beta: number,
    private readonly gamma: number,
    minRto: number,
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
    const rtt = ack.now - ack.sentAt;
    this.rto.sample(rtt);
    if (rtt < this.baseRtt) this.baseRtt = rtt;
    if (rtt < this.roundMinRtt) this.roundMinRtt = rtt;
    if (this.w < this.ssthresh && this.growThisRound) this.w += 1;
    if (this.rounds.ended(ack.seq)) this.endRound();
  }

  /** The once-per-RTT decision, on the ACK of the last packet of the round. */
  private endRound(): void {
    const rtt = this.roundMinRtt;
    this.roundMinRtt = Infinity;
    if (rtt === Infinity) return;
    this.diff = (this.w * (rtt - this.baseRtt)) / rtt;
    if (this.w < this.ssthresh) {
      if (this.diff > this.gamma) {
        // the queue has begun to build: leave slow start one packet below what the path holds
        this.w = Math.max(2, Math.min(this.w, (this.w * this.baseRtt) / rtt + 1));
        this.ssthresh = this.w;
      } else this.growThisRound = !this.growThisRound;
      return;
    }
    if (this.diff < this.alpha) this.w += 1;
    else if (this.diff > this.beta) this.w = Math.max(2, this.w - 1);
  }

  onLoss(_now: number, seq: number): void {
    if (!this.episode.fresh(seq)) return;
    this.w = Math.max(2, this.w / 2);
    this.ssthresh = this.w;
  }

  onTimeout(): void {
    this.ssthresh = Math.max(2, this.w / 2);
    this.w = 2;
    this.episode.reset();
    this.rto.back();
  }

  timeoutMs(): number {
    return this.rto.rto;
  }

  estimates() {
    return { rttMin: this.baseRtt, ssthresh: this.ssthresh, srtt: this.rto.srtt, rto: this.rto.rto };
  }
}

export const vegas = defineScheme({
  id: 'vegas',
  title: 'TCP Vegas',
  doc: 'Keeps between alpha and beta packets queued, from expected vs actual rate once per RTT (Brakmo & Peterson).',
  mode: 'window',
  params: [
    num('alpha', 'packets', 0.5, 20, 0.5, 2, 'Fewer packets queued than this: +1 per RTT'),
    num('beta', 'packets', 1, 40, 0.5, 4, 'More packets queued than this: −1 per RTT'),
    num('gamma', 'packets', 0.5, 20, 0.5, 1, 'Slow start ends when more than this many packets are queued'),
    num('minRto', 'ms', 10, 1000, 10, 200, 'Lower bound of the retransmission timeout'),
  ],
  create: (p) => new Vegas(p.alpha, p.beta, p.gamma, p.minRto),
});
