import type { ScaleLinear } from 'd3-scale';

/**
 * One thing a time chart draws; data are (t, y) pairs in time order, bands (start, end) pairs. Marks are
 * events ticked on the time axis (their y is ignored).
 */
export interface Layer {
  kind: 'dots' | 'line' | 'step' | 'area' | 'bands' | 'marks';
  data: Float64Array;
  color: string;
  label: string;
  /** Dot size or line width in CSS pixels. */
  size?: number;
  /** Areas: the y they fill from (the axis when absent). */
  base?: number;
  /** Lines: a dash pattern in CSS pixels. */
  dash?: number[];
}

/** A user-timing mark at the first chart painted with marks, for measuring time to first chart. */
export const FIRST_CHART_MARK = 'pipefill:first-chart';
let firstMarked = false;

/** Index of the first pair whose t is above `t` (binary search over interleaved pairs). */
export function pairsUpTo(data: Float64Array, t: number): number {
  let lo = 0;
  let hi = data.length >> 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (data[2 * mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

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
        const d = l.data;
        const s = l.size ?? 2;
        const start = Math.max(this.drawn.get(l) ?? 0, pairsUpTo(d, t0 - 1e-9));
        const end = pairsUpTo(d, until);
        ctx.fillStyle = l.color;
        for (let i = start; i < end; i++) ctx.fillRect(Math.round(x(d[2 * i])), Math.round(y(d[2 * i + 1])) - s / 2, s, s);
        this.drawn.set(l, end);
      } else {
        if (l.kind === 'bands' || l.kind === 'area') ctx.globalCompositeOperation = 'destination-over';
        this.paintRange(l, x, y, Math.max(t0, from), until);
        ctx.globalCompositeOperation = 'source-over';
      }
    }
  }

  /** Lines, steps, areas and bands between two times (lines start from the point before `from`). */
  private paintRange(l: Layer, x: ScaleLinear<number, number>, y: ScaleLinear<number, number>, from: number, until: number): void {
    const ctx = this.ctx;
    const d = l.data;
    if (l.kind === 'bands') {
      ctx.fillStyle = l.color;
      for (let i = 0; i + 1 < d.length; i += 2) {
        const a = Math.max(d[i], from);
        const b = Math.min(d[i + 1], until);
        if (b > a) ctx.fillRect(x(a), 0, x(b) - x(a), this.height);
      }
      return;
    }
    if (l.kind === 'marks') {
      // A short tick rising from the time axis at each event, so events read against every row's time.
      const axis = y.range()[0];
      ctx.fillStyle = l.color;
      for (let i = pairsUpTo(d, from - 1e-9); i < pairsUpTo(d, until); i++) ctx.fillRect(Math.round(x(d[2 * i])) - 0.5, axis - 7, 1.5, 7);
      return;
    }
    const first = Math.max(0, pairsUpTo(d, from) - 1);
    const end = pairsUpTo(d, until);
    if (end - first < 1) return;
    ctx.beginPath();
    const y0 = l.base === undefined ? y.range()[0] : y(l.base);
    if (l.kind === 'area') ctx.moveTo(x(d[2 * first]), y0);
    for (let i = first; i < end; i++) {
      const px = x(d[2 * i]);
      const py = y(d[2 * i + 1]);
      if (l.kind === 'step' || l.kind === 'area') {
        if (i > first) ctx.lineTo(px, y(d[2 * i - 1]));
        else if (l.kind === 'step') ctx.moveTo(px, py);
        ctx.lineTo(px, py);
      } else if (i === first) ctx.moveTo(px, py);
      else ctx.lineTo(px, py);
    }
    if (l.kind === 'area') {
      const lastX = x(Math.min(until, d[2 * (end - 1)] + (d.length > 2 ? d[2] - d[0] : 0)));
      ctx.lineTo(lastX, y(d[2 * end - 1]));
      ctx.lineTo(lastX, y0);
      ctx.closePath();
      ctx.fillStyle = l.color;
      ctx.fill();
    } else {
      ctx.strokeStyle = l.color;
      ctx.lineWidth = l.size ?? 1.5;
      ctx.setLineDash(l.dash ?? []);
      ctx.stroke();
      ctx.setLineDash([]);
    }
  }
}
