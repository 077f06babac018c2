import { BaseController, choice, num, type Ack, type Scheme } from './types.ts';

/**
 * For the offset server: each round asks for a burst of missing chunks. Replies grow the burst, a
 * round with a missing reply halves it; a reply counts as missing after k × the smoothed RTT.
 */
class BurstAimd extends BaseController {
  private burst: number;
  private roundSize = 0;
  private repliesThisRound = 0;
  private srtt = NaN;

  constructor(initial: number, private readonly perRound: boolean, private readonly k: number, private readonly alpha: number, private readonly initialRtt: number) {
    super();
    this.burst = initial;
  }

  windowSize(): number {
    return this.burst;
  }

  burstSize(): number {
    this.roundSize = Math.max(1, Math.floor(this.burst));
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
    return this.k * (Number.isNaN(this.srtt) ? this.initialRtt : this.srtt);
  }

  estimates() {
    return { srtt: this.srtt, rto: this.timeoutMs() };
  }
}

export const burstAimd: Scheme = {
  id: 'burst-aimd',
  title: 'Burst AIMD',
  doc: 'Bursts of requests that grow with replies and halve when a reply is missing.',
  mode: 'burst',
  params: [
    num('initial', 'requests', 1, 100, 1, 4, 'Burst size of the first round'),
    choice('increase', ['per-reply', 'per-round'], 'per-reply', '+1/burst per reply, or +2 when the whole burst came back'),
    num('k', '×', 1, 10, 0.1, 2, 'A reply is missing after k × the smoothed RTT'),
    num('alpha', '', 0.01, 1, 0.01, 0.125, 'Weight of a new RTT sample in the smoothed RTT'),
    num('initialRtt', 'ms', 1, 2000, 1, 100, 'RTT assumed before the first reply'),
  ],
  create: (p) => new BurstAimd(p.initial as number, p.increase === 'per-round', p.k as number, p.alpha as number, p.initialRtt as number),
};
