import type { ScaleLinear } from 'd3-scale';
import { dotsBetween, isFilled, type PathSink, pairsUpTo, traceDots, traceLayer } from './geometry.ts';

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
 * Paints layers onto a canvas, up to the playhead. A full paint writes dense dots straight into pixels;
 * while the playhead only moves forward, each frame adds just the marks that came due since the last.
 */
export class Painter {
  private readonly ctx: CanvasRenderingContext2D;
  private dpr = 1;
  private width = 0;
  private height = 0;
  private painted: { layers: Layer[]; x: ScaleLinear<number, number>; y: ScaleLinear<number, number>; tNow: number } | null = null;
  private readonly drawn = new Map<Layer, number>();
  /** Dots straight onto the canvas, one fillRect each: the canvas's fast path, no path to build and fill. */
  private readonly dotSink: PathSink = {
    rect: (x, y, w, h) => this.ctx.fillRect(x, y, w, h),
    moveTo: () => {},
    lineTo: () => {},
    closePath: () => {},
  };

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
      performance.mark(FIRST_CHART_MARK);
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
    if (dots.length) {
      const image = ctx.createImageData(W, H);
      const px = new Uint32Array(image.data.buffer);
      for (const l of dots) {
        const color = rgba(l.color);
        const s = Math.max(1, Math.round((l.size ?? 2) * dpr));
        const d = l.data;
        const end = pairsUpTo(d, until);
        for (let i = pairsUpTo(d, t0 - 1e-9); i < end; i++) {
          const cx = Math.round(x(d[2 * i]) * dpr);
          const cy = Math.round(y(d[2 * i + 1]) * dpr) - (s >> 1);
          for (let yy = Math.max(0, cy); yy < Math.min(H, cy + s); yy++) {
            const row = yy * W;
            for (let xx = Math.max(0, cx); xx < Math.min(W, cx + s); xx++) px[row + xx] = color;
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
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    for (const l of layers) {
      if (l.kind === 'dots') {
        const [first, end] = dotsBetween(l, t0, until);
        ctx.fillStyle = l.color;
        traceDots(this.dotSink, l, x, y, Math.max(this.drawn.get(l) ?? 0, first), end);
        this.drawn.set(l, end);
      } else {
        if (l.kind === 'bands' || l.kind === 'area') ctx.globalCompositeOperation = 'destination-over';
        this.paintRange(l, x, y, Math.max(t0, from), until);
        ctx.globalCompositeOperation = 'source-over';
      }
    }
  }

  /** Lines, steps, areas, bands and event ticks between two times (lines start from the point before `from`). */
  private paintRange(l: Layer, x: ScaleLinear<number, number>, y: ScaleLinear<number, number>, from: number, until: number): void {
    const ctx = this.ctx;
    ctx.beginPath();
    if (!traceLayer(ctx, l, x, y, this.height, from, until)) return;
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
