import { atLeastOne, BaseController, choice, MinRtt, num, type Ack, type Scheme } from './types.ts';

/** Grows while the RTT is under a threshold and shrinks above it. */
class DelayTrigger extends BaseController {
  private w = 1;
  private decreasedAt = -Infinity;
  private readonly rttMin = new MinRtt();

  constructor(
    private readonly threshold: number,
    private readonly increase: number,
    private readonly decrease: number,
    private readonly multiplicative: boolean,
    private readonly beta: number,
  ) {
    super();
  }

  windowSize(): number {
    return this.w;
  }

  onAck(ack: Ack): void {
    const rtt = this.rttMin.observe(ack);
    if (rtt < this.threshold) {
      this.w += this.increase;
    } else if (!this.multiplicative) {
      this.w = atLeastOne(this.w - this.decrease);
    } else if (ack.sentAt >= this.decreasedAt) {
      // once per window: the ACKs of packets sent before the cut still carry the old delay
      this.w = atLeastOne(this.w * this.beta);
      this.decreasedAt = ack.now;
    }
  }

  onTimeout(now: number): void {
    this.w = atLeastOne(this.w * this.beta);
    this.decreasedAt = now;
  }

  estimates() {
    return { threshold: this.threshold, rttMin: this.rttMin.value };
  }
}

export const delayTrigger: Scheme = {
  id: 'delay-trigger',
  title: 'Delay trigger',
  doc: 'Increase while the RTT is below a threshold, decrease above it.',
  mode: 'window',
  params: [
    num('threshold', 'ms', 20, 1000, 5, 100, 'RTT above which the window shrinks'),
    num('increase', 'packets', 0.01, 5, 0.01, 1, 'Added per ACK below the threshold'),
    num('decrease', 'packets', 0.01, 5, 0.01, 1, 'Taken per ACK above the threshold (additive variant)'),
    choice('variant', ['additive', 'multiplicative'], 'additive', 'How the window shrinks above the threshold'),
    num('beta', '', 0.05, 0.95, 0.05, 0.5, 'Factor for the multiplicative variant and timeouts'),
  ],
  create: (p) =>
    new DelayTrigger(p.threshold as number, p.increase as number, p.decrease as number, p.variant === 'multiplicative', p.beta as number),
};
