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
  private kept: { x: number; y: number; i: number }[] = [];
  private count = 0;
  /** The last point written and the one waiting to be (it may still be extended along a straight run). */
  private written: { x: number; y: number } | null = null;
  private pending: { x: number; y: number } | null = null;

  constructor(private readonly out: PathSink) {}

  moveTo(x: number, y: number): void {
    this.flush();
    this.out.moveTo(x, y);
    this.written = { x, y };
  }

  lineTo(x: number, y: number): void {
    const column = Math.floor(x / COLUMN_PX);
    if (column !== this.column) {
      this.flushColumn();
      this.column = column;
    }
    const p = { x, y, i: this.count++ };
    const k = this.kept;
    if (k.length === 0) k.push(p, p, p, p);
    else {
      if (y < k[1].y) k[1] = p;
      if (y > k[2].y) k[2] = p;
      k[3] = p;
    }
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
    if (this.pending) this.out.lineTo(this.pending.x, this.pending.y);
    this.pending = null;
    this.column = Number.NaN;
  }

  private flushColumn(): void {
    const seen = new Set<number>();
    for (const p of [...this.kept].sort((a, b) => a.i - b.i)) {
      if (seen.has(p.i)) continue;
      seen.add(p.i);
      this.emit(p.x, p.y);
    }
    this.kept = [];
  }

  private emit(x: number, y: number): void {
    const { written: w, pending: p } = this;
    if (p && w && ((w.y === p.y && p.y === y) || (w.x === p.x && p.x === x))) {
      this.pending = { x, y };
      return;
    }
    if (p) {
      this.out.lineTo(p.x, p.y);
      this.written = p;
    }
    this.pending = { x, y };
  }
}
