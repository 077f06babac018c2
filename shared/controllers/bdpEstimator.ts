import { atLeastOne, BaseController, MinRtt, num, type Ack, type Scheme } from './types.ts';

/**
 * "Poor man's BBR": counts packets ACKed per interval, averages the last few intervals' rates, and
 * keeps a window of that rate × minimum RTT × gain.
 */
class BdpEstimator extends BaseController {
  private w: number;
  private intervalStart = -1;
  private ackedThisInterval = 0;
  private readonly rates: number[] = [];
  private readonly rttMin = new MinRtt();
  private average = 0;

  constructor(private readonly interval: number, private readonly samples: number, private readonly gain: number, initial: number) {
    super();
    this.w = initial;
  }

  windowSize(): number {
    return this.w;
  }

  onAck(ack: Ack): void {
    this.rttMin.observe(ack);
    if (this.intervalStart < 0) this.intervalStart = ack.now;
    while (ack.now >= this.intervalStart + this.interval) {
      this.rates.push(this.ackedThisInterval / this.interval);
      if (this.rates.length > this.samples) this.rates.shift();
      this.ackedThisInterval = 0;
      this.intervalStart += this.interval;
      this.average = this.rates.reduce((s, r) => s + r, 0) / this.rates.length;
      this.w = atLeastOne(this.average * this.rttMin.value * this.gain);
    }
    this.ackedThisInterval++;
  }

  estimates() {
    return { rttMin: this.rttMin.value, bandwidth: this.average * 1000 };
  }
}

export const bdpEstimator: Scheme = {
  id: 'bdp',
  title: 'BDP estimator',
  doc: 'Window = average ACK rate of the last intervals × minimum RTT × gain ("poor man\'s BBR").',
  mode: 'window',
  params: [
    num('interval', 'ms', 5, 500, 5, 25, 'Length of one rate-measurement interval'),
    num('samples', 'intervals', 1, 50, 1, 5, 'How many recent intervals are averaged'),
    num('gain', '×', 1, 3, 0.05, 1.5, 'Multiplier on the estimated bandwidth-delay product'),
    num('initial', 'packets', 1, 100, 1, 10, 'Window before the first estimate'),
  ],
  create: (p) => new BdpEstimator(p.interval as number, p.samples as number, p.gain as number, p.initial as number),
};
