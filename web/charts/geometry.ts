import type { ScaleLinear } from 'd3-scale';
import type { Layer } from './painter.ts';

/**
 * Where a layer's marks go, as path commands. A canvas context and a d3-path (which writes SVG path
 * data) both take them, so the page's canvas and the exported SVG draw the same geometry.
 */
export interface PathSink {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  rect(x: number, y: number, w: number, h: number): void;
  closePath(): void;
}

type Scale = ScaleLinear<number, number>;

/**
 * A linear scale as plain numbers, for loops over hundreds of thousands of points: `at` gives exactly
 * what d3 gives (its own normalise-then-interpolate, so the same rounding and the same pixels) without a
 * call through the scale per point.
 */
export interface Affine {
  d0: number;
  span: number;
  r0: number;
  r1: number;
}

export function affineOf(scale: Scale): Affine {
  let [d0, d1] = scale.domain();
  let [r0, r1] = scale.range();
  if (d1 < d0) [d0, d1, r0, r1] = [d1, d0, r1, r0];
  const span = d1 - d0;
  if (span) return { d0, span, r0, r1 };
  // d3 maps everything to the middle of an empty domain.
  const mid = r0 * 0.5 + r1 * 0.5;
  return { d0: 0, span: Number.POSITIVE_INFINITY, r0: mid, r1: mid };
}

/** Where `v` lands on the scale `a`. Small and monomorphic, so the JIT inlines it into the loops. */
export function at(a: Affine, v: number): number {
  const u = (v - a.d0) / a.span;
  return a.r0 * (1 - u) + a.r1 * u;
}

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

/** How tall an event tick stands on the time axis when its layer does not say (px). */
export const TICK_HEIGHT = 7;
/** An event tick's width (px). */
export const TICK_WIDTH = 1.5;

/** Dots from the pair at `start` up to (not including) `end`: squares of the layer's size, in whole pixels. */
export function traceDots(sink: PathSink, l: Layer, x: Scale, y: Scale, start: number, end: number): void {
  const d = l.data;
  const s = l.size ?? 2;
  const ax = affineOf(x);
  const ay = affineOf(y);
  for (let i = start; i < end; i++) sink.rect(Math.round(at(ax, d[2 * i])), Math.round(at(ay, d[2 * i + 1])) - s / 2, s, s);
}

/** Which pairs of a dots layer fall between two times. */
export const dotsBetween = (l: Layer, from: number, until: number): [number, number] => [pairsUpTo(l.data, from - 1e-9), pairsUpTo(l.data, until)];

/** Bands: each (start, end) pair as a full-height rectangle, clipped to [from, until]. */
export function traceBands(sink: PathSink, l: Layer, x: Scale, height: number, from: number, until: number): void {
  const d = l.data;
  for (let i = 0; i + 1 < d.length; i += 2) {
    const a = Math.max(d[i], from);
    const b = Math.min(d[i + 1], until);
    if (b > a) sink.rect(x(a), 0, x(b) - x(a), height);
  }
}

/**
 * Event ticks, one at each event's time, rising from the time axis (or, `hang`, hanging from the top
 * edge); `size` is the tick's height.
 */
export function traceMarks(sink: PathSink, l: Layer, x: Scale, y: Scale, from: number, until: number): void {
  const h = l.size ?? TICK_HEIGHT;
  const top = l.hang ? y.range()[1] : y.range()[0] - h;
  const d = l.data;
  for (let i = pairsUpTo(d, from - 1e-9); i < pairsUpTo(d, until); i++) sink.rect(Math.round(x(d[2 * i])) - TICK_WIDTH / 2, top, TICK_WIDTH, h);
}

/**
 * Lines, steps and areas between two times; a line starts from the point before `from`. Returns false
 * when there is nothing to draw.
 */
export function tracePolyline(sink: PathSink, l: Layer, x: Scale, y: Scale, from: number, until: number): boolean {
  const d = l.data;
  const first = Math.max(0, pairsUpTo(d, from) - 1);
  const end = pairsUpTo(d, until);
  if (end - first < 1) return false;
  const y0 = l.base === undefined ? y.range()[0] : y(l.base);
  const ax = affineOf(x);
  const ay = affineOf(y);
  if (l.kind === 'area') sink.moveTo(x(d[2 * first]), y0);
  for (let i = first; i < end; i++) {
    const px = at(ax, d[2 * i]);
    const py = at(ay, d[2 * i + 1]);
    if (l.kind === 'step' || l.kind === 'area') {
      if (i > first) sink.lineTo(px, at(ay, d[2 * i - 1]));
      else if (l.kind === 'step') sink.moveTo(px, py);
      sink.lineTo(px, py);
    } else if (i === first) sink.moveTo(px, py);
    else sink.lineTo(px, py);
  }
  if (l.kind === 'step') {
    // A level holds until the next point, past the edge of the range (zoomed) or to `holdTo`.
    const next = end < d.length / 2 ? d[2 * end] : (l.holdTo ?? d[2 * (end - 1)]);
    const to = Math.min(until, next);
    if (to > d[2 * (end - 1)]) sink.lineTo(at(ax, to), at(ay, d[2 * end - 1]));
  }
  if (l.kind === 'area') {
    // The last bin keeps its value for one bin width, up to the playhead.
    const lastX = x(Math.min(until, d[2 * (end - 1)] + (d.length > 2 ? d[2] - d[0] : 0)));
    sink.lineTo(lastX, y(d[2 * end - 1]));
    sink.lineTo(lastX, y0);
    sink.closePath();
  }
  return true;
}

/** Whether a layer is filled (dots, bands, marks, areas) rather than stroked (lines, steps). */
export const isFilled = (l: Layer) => l.kind !== 'line' && l.kind !== 'step';

/** Every mark of a layer between two times, whatever its kind. Returns false when nothing was traced. */
export function traceLayer(sink: PathSink, l: Layer, x: Scale, y: Scale, height: number, from: number, until: number): boolean {
  if (l.kind === 'dots') {
    const [start, end] = dotsBetween(l, from, until);
    traceDots(sink, l, x, y, start, end);
    return end > start;
  }
  if (l.kind === 'bands') traceBands(sink, l, x, height, from, until);
  else if (l.kind === 'marks') traceMarks(sink, l, x, y, from, until);
  else return tracePolyline(sink, l, x, y, from, until);
  return true;
}
