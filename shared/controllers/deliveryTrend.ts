import { atLeastOne, BaseController, num, type Ack, type Scheme } from './types.ts';

/**
 * Compares the one-way delivery time (receiver's clock minus the echoed send time, so clock offsets
 * cancel in the comparison) with the one an interval ago, nudging the window on large changes, on top
 * of a slow AIMD: w + 1/w² per ACK, w^¼ on timeout.
 */
class DeliveryTrend extends BaseController {
  private w = 1;
  private reference = NaN;
  private referenceAt = -Infinity;

  constructor(private readonly interval: number, private readonly factor: number, private readonly timeout: number) {
    super();
  }

  windowSize(): number {
    return this.w;
  }

  onAck(ack: Ack): void {
    this.w += 1 / (this.w * this.w);
    const delivery = ack.receivedAt - ack.sentAt;
    if (ack.now - this.referenceAt < this.interval) return;
    if (delivery <= this.reference / this.factor) this.w = atLeastOne(this.w - 1);
    else if (delivery >= this.reference * this.factor) this.w += 1;
    this.reference = delivery;
    this.referenceAt = ack.now;
  }

  onTimeout(): void {
    this.w = atLeastOne(Math.pow(this.w, 0.25));
  }

  timeoutMs(): number {
    return this.timeout;
  }
}

export const deliveryTrend: Scheme = {
  id: 'delivery-trend',
  title: 'Delivery-time trend',
  doc: 'Every interval compares the delivery time with the last one: much faster → −1, much slower → +1.',
  mode: 'window',
  params: [
    num('interval', 'ms', 10, 2000, 10, 200, 'How far apart the compared delivery times are'),
    num('factor', '×', 1.1, 10, 0.1, 2, 'Change that counts as much faster (÷) or slower (×)'),
    num('timeout', 'ms', 50, 2000, 10, 1000, 'No ACK for this long: w ← w^¼'),
  ],
  create: (p) => new DeliveryTrend(p.interval as number, p.factor as number, p.timeout as number),
};
