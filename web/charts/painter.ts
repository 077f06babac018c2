import type { ScaleLinear } from 'd3-scale';
import { dotSide, newDotCorners, Occupancy } from './dots.ts';
import { type Affine, affineOf, dotsBetween, isFilled, traceLayer } from './geometry.ts';
import { ColumnThinner } from './thinning.ts';

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
  /** Lines: a dash pattern in CSS pixels. */
  dash?: number[];
  /** Marks: the ticks hang from the top edge instead of rising from the time axis (a second run's events, overlaid). */
  hang?: boolean;
}

/** A user-timing mark at the first chart painted with marks, for measuring time to first chart. */
export const FIRST_CHART_MARK = 'pipefill:first-chart';
let firstMarked = false;

function rgba(hex: string): number {
  const v = parseInt(hex.slice(1), 16);
  // ImageData is RGBA in memory; a little-endian Uint32 view reads it as ABGR
  return (0xff << 24) | ((v & 0xff) << 16) | (v & 0xff00) | ((v >> 16) & 0xff);
}

/**
 * Paints layers onto a canvas, up to the playhead. A full paint writes dense dots straight into pixels,
 * each spot of a layer once, and lines thinned to the pixel columns; while the playhead only moves
 * forward, each frame adds just the marks that came due since the last.
 */
export class Painter {
  private readonly ctx: CanvasRenderingContext2D;
  private dpr = 1;
  private width = 0;
  private height = 0;
  private painted: { layers: Layer[]; x: ScaleLinear<number, number>; y: ScaleLinear<number, number>; tNow: number } | null = null;
  /** How many pairs of each dots layer are on the canvas, and which spots they fill. */
  private readonly drawn = new Map<Layer, number>();
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

  paint(layers: Layer[], x: ScaleLinear<number, number>, y: ScaleLinear<number, number>, tNow: number): void {
    if (!firstMarked && layers.some((l) => l.data.length > 0 && l.data[0] <= tNow)) {
      firstMarked = true;
      // Marked once the frame showing the canvas has been drawn, not when its pixels were written (at once
      // where there are no frames).
      const mark = () => performance.mark(FIRST_CHART_MARK);
      if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(mark));
      else mark();
    }
    const p = this.painted;
    const forward = p && p.layers === layers && p.x === x && p.y === y && tNow >= p.tNow;
    if (forward) this.paintSince(layers, x, y, p.tNow, tNow);
    else this.paintAll(layers, x, y, tNow);
    this.painted = { layers, x, y, tNow };
  }

  private paintAll(layers: Layer[], x: ScaleLinear<number, number>, y: ScaleLinear<number, number>, tNow: number): void {
    const { ctx, dpr } = this;
    const W = this.canvas.width;
    const H = this.canvas.height;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, W, H);
    const [t0, t1] = x.domain();
    const until = Math.min(tNow, t1);
    const dots = layers.filter((l) => l.kind === 'dots');
    this.occupied.clear();
    if (dots.length) {
      const image = ctx.createImageData(W, H);
      const px = new Uint32Array(image.data.buffer);
      const [ax, ay] = [affineOf(x), affineOf(y)];
      for (const l of dots) {
        const color = rgba(l.color);
        const s = dotSide(l, dpr);
        const [start, end] = dotsBetween(l, t0, until);
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
        this.drawn.set(l, end);
      }
      ctx.putImageData(image, 0, 0);
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.globalCompositeOperation = 'destination-over';
    for (const l of layers) if (l.kind === 'bands' || l.kind === 'area') this.paintRange(l, x, y, t0, until);
    ctx.globalCompositeOperation = 'source-over';
    for (const l of layers) if (l.kind === 'line' || l.kind === 'step' || l.kind === 'marks') this.paintRange(l, x, y, t0, until);
  }

  private paintSince(layers: Layer[], x: ScaleLinear<number, number>, y: ScaleLinear<number, number>, from: number, tNow: number): void {
    const { ctx, dpr } = this;
    const [t0, t1] = x.domain();
    const until = Math.min(tNow, t1);
    if (until <= from) return;
    const [ax, ay] = [affineOf(x), affineOf(y)];
    for (const l of layers) {
      if (l.kind === 'dots') {
        const [first, end] = dotsBetween(l, t0, until);
        const n = this.newDots(l, ax, ay, Math.max(this.drawn.get(l) ?? 0, first), end);
        const s = dotSide(l, dpr);
        const c = this.corners.buf;
        ctx.setTransform(1, 0, 0, 1, 0, 0);
        ctx.fillStyle = l.color;
        for (let k = 0; k < 2 * n; k += 2) ctx.fillRect(c[k], c[k + 1], s, s);
        this.drawn.set(l, end);
      } else {
        ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
        if (l.kind === 'bands' || l.kind === 'area') ctx.globalCompositeOperation = 'destination-over';
        this.paintRange(l, x, y, Math.max(t0, from), until);
        ctx.globalCompositeOperation = 'source-over';
      }
    }
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
    ctx.beginPath();
    const thinned = new ColumnThinner(ctx);
    const traced = traceLayer(thinned, l, x, y, this.height, from, until);
    thinned.flush();
    if (!traced) return;
    if (isFilled(l)) {
      ctx.fillStyle = l.color;
      ctx.fill();
      return;
    }
    ctx.strokeStyle = l.color;
    ctx.lineWidth = l.size ?? 1.5;
    ctx.setLineDash(l.dash ?? []);
    ctx.stroke();
    ctx.setLineDash([]);
  }
}
