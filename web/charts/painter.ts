import { channels } from './palette.ts';
import type { ScaleLinear } from 'd3-scale';
import { dotSide, newDotCorners, Occupancy } from './dots.ts';
import { type Affine, affineOf, dotsBetween, isFilled, traceLayer } from './geometry.ts';
import { ColumnThinner } from './thinning.ts';
import type { CoarseDots } from '../../shared/metrics/thin.ts';

/**
 * One thing a time chart draws; data are (t, y) pairs in time order, bands (start, end) pairs. Marks are
 * events ticked on the time axis (their y is ignored).
 */
export interface Layer {
  kind: 'dots' | 'line' | 'step' | 'area' | 'bands' | 'marks';
  data: Float64Array;
  color: string;
  label: string;
  /** Dot size, line width or an event tick's height, in CSS pixels. */
  size?: number;
  /** Areas: the y they fill from (the axis when absent). */
  base?: number;
  /** Steps: until when the last level holds (a run's end), for a series logged only when it moves. */
  holdTo?: number;
  /** Lines: a dash pattern in CSS pixels. */
  dash?: number[];
  /** Marks: the ticks hang from the top edge instead of rising from the time axis (a second run's events, overlaid). */
  hang?: boolean;
  /** Dots: a thinned copy, drawn where its cells are no larger than a device pixel (the whole run's chart). */
  coarse?: CoarseDots;
}

/** A user-timing mark at the first chart painted with marks, for measuring time to first chart. */
export const FIRST_CHART_MARK = 'pipefill:first-chart';
let firstMarked = false;

function rgba(hex: string): number {
  const [r, g, b] = channels(hex);
  // ImageData is RGBA in memory; a little-endian Uint32 view reads it as ABGR
  return (0xff << 24) | (b << 16) | (g << 8) | r;
}

const nothingToCancel = () => {};

/**
 * Marks the first chart with marks once the playhead (at `t`, moving `rate` ms per ms) has reached its
 * first mark and the frame showing it has been drawn (at once where there are no frames). Returns how
 * to call a wait off.
 */
export function markFirstChart(layers: Layer[], t: number, rate: number): () => void {
  const first = Math.min(...layers.map((l) => (l.data.length > 0 ? l.data[0] : Number.POSITIVE_INFINITY)));
  if (firstMarked || !Number.isFinite(first)) return nothingToCancel;
  if (first > t) {
    if (rate <= 0) return nothingToCancel;
    return ahead(() => markFirstChart(layers, first, 0), (first - t) / rate);
  }
  firstMarked = true;
  const mark = () => performance.mark(FIRST_CHART_MARK);
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => ahead(mark));
  else mark();
  return nothingToCancel;
}

/**
 * Calls `f` after `delayMs` (from a frame's callback: once that frame is drawn); returns how to call it
 * off. A plain timeout would also wait for the tasks queued before it (the other side's run arriving, and
 * drawn), so a user-blocking task goes first where the browser has them.
 */
function ahead(f: () => void, delayMs = 0): () => void {
  if (typeof scheduler === 'undefined') {
    const id = setTimeout(f, delayMs);
    return () => clearTimeout(id);
  }
  const off = new AbortController();
  scheduler.postTask(f, { priority: 'user-blocking', delay: delayMs, signal: off.signal }).catch(() => {});
  return () => off.abort();
}

/**
 * Paints layers onto a canvas, the whole time domain (the chart covers what lies after the playhead):
 * dense dots straight into pixels, each spot of a layer once, and lines thinned to the pixel columns.
 */
export class Painter {
  private readonly ctx: CanvasRenderingContext2D;
  private dpr = 1;
  private width = 0;
  private height = 0;
  private painted: { layers: Layer[]; x: ScaleLinear<number, number>; y: ScaleLinear<number, number> } | null = null;
  /** Which spots each dots layer fills. */
  private readonly occupied = new Map<Layer, Occupancy>();
  /** Scratch space for the corners of the dots about to be filled. */
  private readonly corners = { buf: new Int32Array(0) };

  constructor(private readonly canvas: HTMLCanvasElement) {
    this.ctx = canvas.getContext('2d', { alpha: true })!;
  }

  resize(width: number, height: number, dpr: number): void {
    if (width === this.width && height === this.height && dpr === this.dpr) return;
    this.width = width;
    this.height = height;
    this.dpr = dpr;
    this.canvas.width = Math.max(1, Math.round(width * dpr));
    this.canvas.height = Math.max(1, Math.round(height * dpr));
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    this.painted = null;
  }

  /** Paints the layers, unless the canvas shows them on these scales already. */
  paint(layers: Layer[], x: ScaleLinear<number, number>, y: ScaleLinear<number, number>): void {
    const p = this.painted;
    if (p && p.layers === layers && p.x === x && p.y === y) return;
    this.paintAll(layers, x, y);
    this.painted = { layers, x, y };
  }

  private paintAll(layers: Layer[], x: ScaleLinear<number, number>, y: ScaleLinear<number, number>): void {
    const { ctx, dpr } = this;
    const W = this.canvas.width;
    const H = this.canvas.height;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, W, H);
    const [t0, t1] = x.domain();
    const dots = layers.filter((l) => l.kind === 'dots');
    this.occupied.clear();
    if (dots.length) {
      const image = ctx.createImageData(W, H);
      const px = new Uint32Array(image.data.buffer);
      const [ax, ay] = [affineOf(x), affineOf(y)];
      for (const whole of dots) {
        const l = this.drawnAs(whole, x, y);
        const color = rgba(l.color);
        const s = dotSide(l, dpr);
        const [start, end] = dotsBetween(l, t0, t1);
        const n = this.newDots(l, ax, ay, start, end);
        const c = this.corners.buf;
        for (let k = 0; k < 2 * n; k += 2) {
          const left = c[k];
          const top = c[k + 1];
          for (let yy = Math.max(0, top); yy < Math.min(H, top + s); yy++) {
            const row = yy * W;
            for (let xx = Math.max(0, left); xx < Math.min(W, left + s); xx++) px[row + xx] = color;
          }
        }
      }
      ctx.putImageData(image, 0, 0);
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.globalCompositeOperation = 'destination-over';
    for (const l of layers) if (l.kind === 'bands' || l.kind === 'area') this.paintRange(l, x, y, t0, t1);
    ctx.globalCompositeOperation = 'source-over';
    for (const l of layers) if (l.kind === 'line' || l.kind === 'step' || l.kind === 'marks') this.paintRange(l, x, y, t0, t1);
  }

  /** A dots layer's coarse copy where its cells are no larger than a device pixel on these scales; else the layer. */
  private drawnAs(l: Layer, x: ScaleLinear<number, number>, y: ScaleLinear<number, number>): Layer {
    const c = l.coarse;
    if (!c) return l;
    const [t0, t1] = x.domain();
    const [v0, v1] = y.domain();
    const fits = c.cellMs <= (t1 - t0) / this.canvas.width && c.cellValue <= Math.abs(v1 - v0) / this.canvas.height;
    return fits ? { ...l, data: c.data } : l;
  }

  /** Corners of a dots layer's pairs from `start` to `end` on spots the layer has not filled yet, into `corners`. */
  private newDots(l: Layer, ax: Affine, ay: Affine, start: number, end: number): number {
    let taken = this.occupied.get(l);
    if (!taken) this.occupied.set(l, (taken = new Occupancy(this.canvas.width, this.canvas.height)));
    return newDotCorners(l, ax, ay, this.dpr, start, end, taken, this.corners);
  }

  /**
   * Lines, steps, areas, bands and event ticks between two times (lines start from the point before
   * `from`), lines thinned to what their pixel columns show.
   */
  private paintRange(l: Layer, x: ScaleLinear<number, number>, y: ScaleLinear<number, number>, from: number, until: number): void {
    const ctx = this.ctx;
    const path = new Path2D();
    const thinned = new ColumnThinner(path);
    const traced = traceLayer(thinned, l, x, y, this.height, from, until);
    thinned.flush();
    if (!traced) return;
    if (isFilled(l)) {
      ctx.fillStyle = l.color;
      ctx.fill(path);
      return;
    }
    ctx.strokeStyle = l.color;
    ctx.setLineDash(l.dash ?? []);
    this.strokeInHairlines(path, l.size ?? 1.5);
    ctx.setLineDash([]);
  }

  /**
   * Strokes a path `width` CSS pixels wide as hairlines (one device pixel) side by side. A canvas drawn in
   * software outlines a wider stroke before filling it, 10 to 25 times the time of a hairline, which it
   * draws directly: a chart's lines took most of a redraw's time.
   */
  private strokeInHairlines(path: Path2D, width: number): void {
    const { ctx, dpr } = this;
    const wide = width * dpr;
    const passes = Math.max(1, Math.round(wide));
    ctx.lineWidth = 1 / dpr;
    for (let k = 0; k < passes; k++) {
      // Offset along the diagonal, so that level and upright segments both widen.
      const off = passes === 1 ? 0 : ((wide - 1) * k) / (passes - 1);
      ctx.setTransform(dpr, 0, 0, dpr, off, off);
      ctx.stroke(path);
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  }
}
