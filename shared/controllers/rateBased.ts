import { BaseController, defineScheme, MinRtt, num, type Ack } from './types.ts';

/** Sizes the window from the recent ACK rate: w = r · RTTmin · k + c. */
class RateBased extends BaseController {
  private w = 1;
  private readonly ackTimes: number[] = [];
  private head = 0;
  private readonly rttMin = new MinRtt();
  private rate = 0;

  constructor(
    private readonly span: number,
    private readonly k: number,
    private readonly c: number,
  ) {
    super();
  }

  windowSize(): number {
    return this.w;
  }

  onAck(ack: Ack): void {
    this.rttMin.observe(ack);
    this.ackTimes.push(ack.now);
    while (this.ackTimes[this.head] <= ack.now - this.span) this.head++;
    if (this.head > 4096) {
      this.ackTimes.splice(0, this.head);
      this.head = 0;
    }
    this.rate = (this.ackTimes.length - this.head) / this.span; // ACKs per ms
    this.w = this.rate * this.rttMin.value * this.k + this.c;
  }

  estimates() {
    return { rttMin: this.rttMin.value, bandwidth: this.rate * 1000 };
  }
}

export const rateBased = defineScheme({
  id: 'rate-based',
  title: 'Rate-based',
  doc: 'Window = ACK rate over the last span × minimum RTT × k + c.',
  mode: 'window',
  params: [
    num('span', 'ms', 10, 2000, 10, 150, 'Window over which the ACK rate is measured'),
    num('k', '×', 0.5, 5, 0.05, 2, 'Multiplier on the bandwidth-delay product'),
    num('c', 'packets', 0, 20, 0.5, 1, 'Packets added on top'),
  ],
  create: (p) => new RateBased(p.span, p.k, p.c),
});
