/**
 * Delays of a long-running proxy, counted in fixed bins so that memory stays the same however many
 * packets cross it. Bins are 0.01 ms wide up to 10 s; anything later lands in the last bin.
 */
const BIN_MS = 0.01;
const BINS = 1_000_000;

export class DelayHistogram {
  private readonly counts = new Uint32Array(BINS);
  count = 0;
  private sum = 0;
  max = 0;

  add(ms: number): void {
    const v = ms < 0 ? 0 : ms;
    this.counts[Math.min(BINS - 1, Math.floor(v / BIN_MS))]++;
    this.count++;
    this.sum += v;
    if (v > this.max) this.max = v;
  }

  get mean(): number {
    return this.count ? this.sum / this.count : NaN;
  }

  /** The value below which a fraction `p` of the samples lie, to the bin's middle; NaN when empty. */
  quantile(p: number): number {
    if (this.count === 0) return NaN;
    const k = Math.min(this.count - 1, Math.floor(p * this.count));
    let seen = 0;
    for (let i = 0; i < BINS; i++) {
      seen += this.counts[i];
      if (seen > k) return Math.min(this.max, (i + 0.5) * BIN_MS);
    }
    return this.max;
  }
}
