import { BaseController, defineScheme, MinRtt, num, type Ack } from './types.ts';

/** Intervals of history kept: spans up to this many intervals (100 s at 25 ms). */
const HISTORY = 4096;
/**
 * The timer's wait doubles each time it fires (as TCP's RTO backs off), up to 2⁴ × the base, and
 * returns to the base once the estimate is above the floor again: in an outage every firing puts one
 * more packet in the queue, and a short fixed wait would fill it with seconds of probes (the odd ACK of
 * a sparse outage does not count as the link being back).
 */
const MAX_BACKOFF = 4;

/**
 * "Poor man's BBR": counts packets delivered in each interval (by the advance of the cumulative ACK, so
 * a lost ACK loses no count) and keeps a window of the average rate × minimum RTT × gain. The average spans the last `samples` intervals, and never less than one minimum
 * RTT: over a shorter span a long RTT, ACK loss or ACK jitter leaves intervals empty that say nothing of
 * the rate, and the window collapses. Intervals close on ACKs and on the timer, so the estimate follows
 * an outage too. The window never drops below `minWindow` (4 by default): from one packet in flight the
 * measured rate × RTTmin × gain stays under 2, and a whole-packet window would never grow again.
 */
class BdpEstimator extends BaseController {
  private w: number;
  private readonly counts = new Uint32Array(HISTORY);
  /** Index of the first millisecond of the open interval, in intervals since the first ACK. */
  private open = -1;
  private openStart = 0;
  private readonly rttMin = new MinRtt();
  private rate = 0;
  /** The cumulative ACK so far: its advance is what the receiver got, lost ACKs included. */
  private cumulative = 0;
  /** Timer firings since the link last delivered more than the floor: each doubles the next wait. */
  private backoff = 0;

  constructor(
    private readonly interval: number,
    private readonly samples: number,
    private readonly gain: number,
    initial: number,
    private readonly minWindow: number,
    private readonly timeout: number,
  ) {
    super();
    this.w = initial;
  }

  windowSize(): number {
    return this.w;
  }

  onAck(ack: Ack): void {
    this.rttMin.observe(ack);
    if (this.open < 0) {
      this.open = 0;
      this.openStart = ack.now;
    }
    this.closeUntil(ack.now);
    if (ack.cumulative > this.cumulative) {
      this.counts[this.open % HISTORY] += ack.cumulative - this.cumulative;
      this.cumulative = ack.cumulative;
    }
  }

  onTimeout(now: number): void {
    if (this.open >= 0) this.closeUntil(now);
    if (this.backoff < MAX_BACKOFF) this.backoff++;
  }

  /** Closes every interval that ended by `now`, re-estimating the window after each. */
  private closeUntil(now: number): void {
    while (now >= this.openStart + this.interval) {
      this.open++;
      this.openStart += this.interval;
      this.counts[this.open % HISTORY] = 0;
      this.estimate();
    }
  }

  private estimate(): void {
    const span = Math.min(HISTORY - 1, this.open, Math.max(this.samples, Math.ceil(this.rttMin.value / this.interval)));
    let acked = 0;
    for (let k = 1; k <= span; k++) acked += this.counts[(this.open - k) % HISTORY];
    this.rate = acked / (span * this.interval);
    const estimate = this.rate * this.rttMin.value * this.gain;
    this.w = Math.max(this.minWindow, estimate);
    // the link is delivering again (more than the floor's worth): the timer returns to its base wait
    if (estimate > this.minWindow) this.backoff = 0;
  }

  timeoutMs(): number {
    const base = this.timeout > 0 ? this.timeout : Math.min(this.rttMin.value * this.gain, 100);
    return base * 2 ** this.backoff;
  }

  estimates() {
    return { rttMin: this.rttMin.value, bandwidth: this.rate * 1000 };
  }
}

export const bdpEstimator = defineScheme({
  id: 'bdp',
  title: 'BDP estimator',
  doc: 'Window = average ACK rate of the last intervals (at least one min RTT) × minimum RTT × gain ("poor man\'s BBR").',
  mode: 'window',
  params: [
    num('interval', 'ms', 5, 500, 5, 25, 'Length of one rate-measurement interval'),
    num('samples', 'intervals', 1, 50, 1, 5, 'How many recent intervals are averaged (at least one min RTT of them)'),
    num('gain', '×', 1, 3, 0.05, 1.75, 'Multiplier on the estimated bandwidth-delay product'),
    num('initial', 'packets', 1, 100, 1, 10, 'Window before the first estimate'),
    num('minWindow', 'packets', 1, 10, 1, 4, 'Floor: from a small whole-packet window, rate × RTTmin × gain never reaches the next packet'),
    { ...num('timeout', 'ms', 0, 1000, 5, 0, 'No ACK for this long: re-estimate and send one packet (0: min(RTTmin × gain, 100 ms))'), zero: 'auto' },
  ],
  timer: 're-estimate (its timer)',
  create: (p) => new BdpEstimator(p.interval, p.samples, p.gain, p.initial, p.minWindow, p.timeout),
});
