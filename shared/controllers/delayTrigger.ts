import { atLeastOne, BaseController, choice, defineScheme, MinRtt, num, type Ack } from './types.ts';

interface DelayTriggerSettings {
  threshold: number;
  increase: number;
  perWindow: boolean;
  decrease: number;
  multiplicative: boolean;
  beta: number;
  oncePerWindow: boolean;
}

/**
 * Grows while the RTT is under a threshold and shrinks above it. The 6.829 variant: +1 per ACK below,
 * −1 per ACK above; CS244's threshold AIMD: +1/w per ACK below, ×½ on every ACK above.
 */
class DelayTrigger extends BaseController {
  private w = 1;
  private cutAt = -Infinity;
  private readonly rttMin = new MinRtt();

  constructor(private readonly s: DelayTriggerSettings) {
    super();
  }

  windowSize(): number {
    return this.w;
  }

  onAck(ack: Ack): void {
    const s = this.s;
    const rtt = this.rttMin.observe(ack);
    if (rtt < s.threshold) {
      this.w += s.perWindow ? s.increase / this.w : s.increase;
      return;
    }
    // once per window: ACKs of packets sent before the last cut still carry the delay that caused it
    if (s.oncePerWindow && ack.sentAt < this.cutAt) return;
    this.w = atLeastOne(s.multiplicative ? this.w * s.beta : this.w - s.decrease);
    this.cutAt = ack.now;
  }

  estimates() {
    return { threshold: this.s.threshold, rttMin: this.rttMin.value };
  }
}

export const delayTrigger = defineScheme({
  id: 'delay-trigger',
  title: 'Delay trigger',
  doc: 'Increase while the RTT is below a threshold, decrease above it.',
  mode: 'window',
  params: [
    num('threshold', 'ms', 20, 1000, 5, 100, 'RTT at or above which the window shrinks'),
    num('increase', 'packets', 0.1, 2, 0.1, 1, 'Added below the threshold (per ACK, or per window of ACKs)'),
    choice('increaseMode', ['per-ack', 'per-window'], 'per-ack', 'per-ack: w += increase; per-window: w += increase/w'),
    num('decrease', 'packets', 0.1, 2, 0.1, 1, 'Taken per ACK above the threshold (additive variant)'),
    choice('variant', ['additive', 'multiplicative'], 'additive', 'Above the threshold: w − decrease, or w·beta'),
    num('beta', '', 0.05, 0.95, 0.05, 0.5, 'Factor of the multiplicative variant'),
    choice('cut', ['every-ack', 'once-per-window'], 'every-ack', 'Shrink on every ACK above the threshold, or once per window'),
  ],
  create: (p) =>
    new DelayTrigger({
      threshold: p.threshold,
      increase: p.increase,
      perWindow: p.increaseMode === 'per-window',
      decrease: p.decrease,
      multiplicative: p.variant === 'multiplicative',
      beta: p.beta,
      oncePerWindow: p.cut === 'once-per-window',
    }),
});
