import { decreased } from './aimd.ts';
import { atLeastOne, BaseController, choice, defineScheme, num, type Ack } from './types.ts';

type Comparison = 'interval' | 'per-packet' | 'k-average';

/**
 * Compares the one-way delivery time (receiver's clock minus the echoed send time, so clock offsets
 * cancel in the comparison) with an earlier one, nudging the window on large changes, on top of a slow
 * AIMD: w + 1/w² per ACK, w^¼ on timeout. The earlier one is the delivery time an interval ago, the
 * previous packet's, or (k-average) the mean of the k before the last k.
 */
class DeliveryTrend extends BaseController {
  private w = 1;
  private reference = NaN;
  private referenceAt = -Infinity;
  private readonly recent: number[] = [];

  constructor(
    private readonly interval: number,
    private readonly factor: number,
    private readonly timeout: number,
    private readonly comparison: Comparison,
    private readonly k: number,
  ) {
    super();
  }

  windowSize(): number {
    return this.w;
  }

  onAck(ack: Ack): void {
    this.w += 1 / (this.w * this.w);
    const current = this.current(ack.receivedAt - ack.sentAt);
    if (Number.isNaN(current)) return;
    if (this.comparison === 'interval' && ack.now - this.referenceAt < this.interval) return;
    if (current < this.reference / this.factor) this.w = atLeastOne(this.w - 1);
    else if (current > this.reference * this.factor) this.w += 1;
    this.reference = current;
    this.referenceAt = ack.now;
  }

  /** The delivery time to compare: this packet's, or the mean of the last k (NaN until k are in). */
  private current(delivery: number): number {
    if (this.comparison !== 'k-average') return delivery;
    this.recent.push(delivery);
    if (this.recent.length < this.k) return NaN;
    const mean = this.recent.reduce((s, d) => s + d, 0) / this.k;
    this.recent.length = 0;
    return mean;
  }

  onTimeout(): void {
    this.w = decreased(this.w, 'quartic', 0);
  }

  timeoutMs(): number {
    return this.timeout;
  }
}

export const deliveryTrend = defineScheme({
  id: 'delivery-trend',
  title: 'Delivery-time trend',
  doc: 'Compares the delivery time with an earlier one: factor× faster → −1, factor× slower → +1.',
  mode: 'window',
  params: [
    num('interval', 'ms', 10, 2000, 10, 200, 'How far apart the compared delivery times are (interval comparison)'),
    num('factor', '×', 1.1, 10, 0.1, 2, 'Change that counts as much faster (÷) or slower (×)'),
    num('timeout', 'ms', 20, 2000, 10, 100, 'No ACK for this long: w ← w^¼'),
    choice('compare', ['interval', 'per-packet', 'k-average'], 'interval', 'Compare with the delivery time an interval ago, the previous packet’s, or mean of k with the k before'),
    num('k', 'packets', 2, 100, 1, 4, 'Packets averaged in the k-average comparison'),
  ],
  create: (p) => new DeliveryTrend(p.interval, p.factor, p.timeout, p.compare, p.k),
});
