import { atLeastOne, BaseController, defineScheme, num, type Ack } from './types.ts';

/** Two RTT thresholds: below the low one grow, above the high one shrink, between them hold. */
class Watermarks extends BaseController {
  private w = 1;
  constructor(
    private readonly low: number,
    private readonly high: number,
  ) {
    super();
  }
  windowSize(): number {
    return this.w;
  }
  onAck(ack: Ack): void {
    const rtt = ack.now - ack.sentAt;
    if (rtt < this.low) this.w += 1;
    else if (rtt > this.high) this.w = atLeastOne(this.w - 1);
  }
}

export const watermarks = defineScheme({
  id: 'watermarks',
  title: 'Watermarks',
  doc: 'RTT below the low mark: one more packet; above the high mark: one fewer.',
  mode: 'window',
  params: [num('low', 'ms', 10, 1000, 5, 50, 'RTT below which the window grows by one per ACK'), num('high', 'ms', 10, 2000, 5, 150, 'RTT above which the window shrinks by one per ACK')],
  create: (p) => new Watermarks(p.low, p.high),
});
