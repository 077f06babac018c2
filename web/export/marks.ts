import { pathRound } from 'd3-path';
import { dotsBetween, isFilled, type PathSink, traceLayer } from '../charts/geometry.ts';
import type { ChartPicture } from '../charts/picture.ts';

/**
 * Dense dots land on the same pixels again and again; a vector figure needs each square once. Keeps the
 * first rectangle at each position and size and passes everything else through.
 */
class OncePerPixel implements PathSink {
  private readonly seen = new Set<string>();
  constructor(private readonly out: PathSink) {}
  moveTo(x: number, y: number): void {
    this.out.moveTo(x, y);
  }
  lineTo(x: number, y: number): void {
    this.out.lineTo(x, y);
  }
  closePath(): void {
    this.out.closePath();
  }
  rect(x: number, y: number, w: number, h: number): void {
    const key = `${x},${y},${w},${h}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.out.rect(x, y, w, h);
  }
}

/** How wide a column of the chart is for thinning a line: half a CSS pixel. */
const COLUMN_PX = 0.5;

/**
 * A line with far more points than pixels (a window stepping at every ACK) thinned for a vector figure:
 * in each half-pixel column it keeps the first, lowest, highest and last point, in their order, so the
 * drawn shape is the same; runs along one horizontal or vertical are merged into one segment.
 */
class ColumnThinner implements PathSink {
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

/** The colour of a CSS colour string as an SVG fill or stroke, with its opacity apart (rgba is not SVG 1.1). */
function paint(color: string, attr: 'fill' | 'stroke'): string {
  const m = /^rgba\((\d+),\s*(\d+),\s*(\d+),\s*([\d.]+)\)$/.exec(color);
  return m ? `${attr}="rgb(${m[1]},${m[2]},${m[3]})" ${attr}-opacity="${m[4]}"` : `${attr}="${color}"`;
}

/**
 * A chart's marks as SVG paths, the same geometry its canvas shows (up to the playhead, inside the time
 * domain), in the order the canvas stacks them: bands and areas under everything, then dots, then lines
 * and event ticks.
 */
export function marksSvg(p: ChartPicture): string {
  const [t0, t1] = p.x.domain();
  const until = Math.min(p.tNow, t1);
  const order = (k: string) => (k === 'bands' || k === 'area' ? 0 : k === 'dots' ? 1 : 2);
  const layers = p.layers.map((l, i) => ({ l, i })).sort((a, b) => order(a.l.kind) - order(b.l.kind) || a.i - b.i);
  const out: string[] = [];
  for (const { l } of layers) {
    if (l.kind === 'dots' && dotsBetween(l, t0, until)[1] === 0) continue;
    const d = pathRound(2);
    const sink = l.kind === 'dots' ? new OncePerPixel(d) : new ColumnThinner(d);
    const traced = traceLayer(sink, l, p.x, p.y, p.innerH, t0, until);
    if (sink instanceof ColumnThinner) sink.flush();
    if (!traced) continue;
    const data = d.toString();
    if (!data) continue;
    const style = isFilled(l) ? paint(l.color, 'fill') : `fill="none" ${paint(l.color, 'stroke')} stroke-width="${l.size ?? 1.5}"${l.dash ? ` stroke-dasharray="${l.dash.join(' ')}"` : ''}`;
    out.push(`<path data-layer="${l.label.replace(/[<>&"]/g, '')}" d="${data}" ${style}/>`);
  }
  return out.join('');
}
