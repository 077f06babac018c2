import type { PathSink } from './geometry.ts';

/** How wide a column of the chart is for thinning a line: half a CSS pixel. */
const COLUMN_PX = 0.5;

/**
 * A line with far more points than pixels (a window stepping at every ACK) thinned, for the canvas and
 * the vector figure alike: in each half-pixel column it keeps the first, lowest, highest and last point,
 * in their order, so the drawn shape is the same; runs along one horizontal or vertical are merged into
 * one segment.
 */
export class ColumnThinner implements PathSink {
  private column = Number.NaN;
  /**
   * The column's first, lowest, highest and last points as (x, y, index) triples, in plain numbers: a
   * line can have a few hundred thousand points, and an object for each costs more than the drawing.
   */
  private readonly kept = new Float64Array(12);
  private keeping = false;
  private count = 0;
  /** The last point written and the one waiting to be (it may still be extended along a straight run). */
  private written = false;
  private wx = 0;
  private wy = 0;
  private pending = false;
  private px = 0;
  private py = 0;

  constructor(private readonly out: PathSink) {}

  moveTo(x: number, y: number): void {
    this.flush();
    this.out.moveTo(x, y);
    this.written = true;
    this.wx = x;
    this.wy = y;
  }

  lineTo(x: number, y: number): void {
    const column = Math.floor(x / COLUMN_PX);
    if (column !== this.column) {
      this.flushColumn();
      this.column = column;
    }
    const k = this.kept;
    const i = this.count++;
    if (!this.keeping) {
      for (let slot = 0; slot < 12; slot += 3) this.keep(slot, x, y, i);
      this.keeping = true;
      return;
    }
    if (y < k[4]) this.keep(3, x, y, i);
    if (y > k[7]) this.keep(6, x, y, i);
    this.keep(9, x, y, i);
  }

  closePath(): void {
    this.flush();
    this.out.closePath();
  }

  rect(x: number, y: number, w: number, h: number): void {
    this.out.rect(x, y, w, h);
  }

  /** Writes whatever is still held. */
  flush(): void {
    this.flushColumn();
    if (this.pending) this.out.lineTo(this.px, this.py);
    this.pending = false;
    this.column = Number.NaN;
  }

  private keep(slot: number, x: number, y: number, i: number): void {
    this.kept[slot] = x;
    this.kept[slot + 1] = y;
    this.kept[slot + 2] = i;
  }

  /** The kept points in the order they came, each once: the first, the lowest and highest by index, the last. */
  private flushColumn(): void {
    if (!this.keeping) return;
    this.keeping = false;
    const k = this.kept;
    const [a, b] = k[5] <= k[8] ? [3, 6] : [6, 3];
    let last = -1;
    for (const slot of [0, a, b, 9]) {
      if (k[slot + 2] === last) continue;
      last = k[slot + 2];
      this.emit(k[slot], k[slot + 1]);
    }
  }

  private emit(x: number, y: number): void {
    if (this.pending && this.written && ((this.wy === this.py && this.py === y) || (this.wx === this.px && this.px === x))) {
      this.px = x;
      this.py = y;
      return;
    }
    if (this.pending) {
      this.out.lineTo(this.px, this.py);
      this.written = true;
      this.wx = this.px;
      this.wy = this.py;
    }
    this.pending = true;
    this.px = x;
    this.py = y;
  }
}
