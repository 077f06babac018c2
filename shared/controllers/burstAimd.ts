import { BaseController, choice, defineScheme, num, type Ack, wholePackets } from './types.ts';

/**
 * For the offset server, as the course's burst clients run: each round sends a burst of requests for
 * missing chunks, then waits a timeout of k × the smoothed RTT (never less than a floor) before the
 * next, so the rate is about burst × 1448 B per timeout. +2 when the whole burst came back (or +1/burst
 * per reply), halved when a reply is missing.
 */
class BurstAimd extends BaseController {
  private burst: number;
  private roundSize = 0;
  private repliesThisRound = 0;
  private srtt = NaN;

  constructor(
    initial: number,
    private readonly perRound: boolean,
    private readonly k: number,
    private readonly alpha: number,
    private readonly initialRtt: number,
    private readonly floor: number,
  ) {
    super();
    this.burst = initial;
  }

  windowSize(): number {
    return this.burst;
  }

  burstSize(): number {
    this.roundSize = wholePackets(this.burst);
    this.repliesThisRound = 0;
    return this.roundSize;
  }

  onAck(ack: Ack): void {
    const rtt = ack.now - ack.sentAt;
    this.srtt = Number.isNaN(this.srtt) ? rtt : (1 - this.alpha) * this.srtt + this.alpha * rtt;
    this.repliesThisRound++;
    if (!this.perRound) this.burst += 1 / this.burst;
    else if (this.repliesThisRound === this.roundSize) this.burst += 2;
  }

  onLoss(): void {
    this.burst = Math.max(1, this.burst / 2);
  }

  onTimeout(): void {
    this.burst = Math.max(1, this.burst / 2);
  }

  timeoutMs(): number {
    return Math.max(this.floor, this.k * (Number.isNaN(this.srtt) ? this.initialRtt : this.srtt));
  }

  estimates() {
    return { srtt: this.srtt, rto: this.timeoutMs() };
  }
}

export const burstAimd = defineScheme({
  id: 'burst-aimd',
  title: 'Burst AIMD',
  doc: 'Send a burst, wait k × smoothed RTT; +2 when the whole burst came back, halve when a reply is missing.',
  mode: 'burst',
  params: [
    num('initial', 'requests', 1, 100, 1, 4, 'Burst size of the first round'),
    choice('increase', ['per-round', 'per-reply'], 'per-round', '+2 when the whole burst came back, or +1/burst per reply'),
    num('k', '×', 1, 10, 0.1, 2, 'Each round waits k × the smoothed RTT'),
    num('floor', 'ms', 1, 1000, 1, 10, 'The wait is never shorter than this'),
    num('alpha', '', 0.01, 1, 0.01, 0.125, 'Weight of a new RTT sample in the smoothed RTT'),
    num('initialRtt', 'ms', 1, 2000, 1, 100, 'RTT assumed before the first reply'),
  ],
  create: (p) => new BurstAimd(p.initial, p.increase === 'per-round', p.k, p.alpha, p.initialRtt, p.floor),
});
