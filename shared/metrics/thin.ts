/**
 * Thins a step series (t, y) pairs for drawing: of each of `buckets` equal spans of time it keeps the
 * first, lowest, highest and last points, in time order. At a span per pixel or finer the line draws the
 * same, with a fraction of the points; a series short enough already comes back as it is.
 */
export function thinSteps(d: Float64Array, start: number, end: number, buckets: number): Float64Array {
  const n = d.length >> 1;
  if (n <= 4 * buckets) return d;
  const span = (end - start) / buckets;
  const bucketOf = (i: number) => Math.floor((d[2 * i] - start) / span);
  const out = new Float64Array(2 * Math.min(n, 4 * (bucketOf(n - 1) - bucketOf(0) + 1)));
  let o = 0;
  const keep = new Int32Array(4);
  const flush = (first: number, low: number, high: number, last: number) => {
    keep[0] = first;
    keep[1] = Math.min(low, high);
    keep[2] = Math.max(low, high);
    keep[3] = last;
    for (let k = 0; k < 4; k++) {
      if (k > 0 && keep[k] === keep[k - 1]) continue;
      out[o++] = d[2 * keep[k]];
      out[o++] = d[2 * keep[k] + 1];
    }
  };
  let bucket = bucketOf(0);
  let first = 0;
  let low = 0;
  let high = 0;
  for (let i = 1; i < n; i++) {
    const b = bucketOf(i);
    if (b !== bucket) {
      flush(first, low, high, i - 1);
      bucket = b;
      first = low = high = i;
    } else {
      if (d[2 * i + 1] < d[2 * low + 1]) low = i;
      if (d[2 * i + 1] > d[2 * high + 1]) high = i;
    }
  }
  flush(first, low, high, n - 1);
  return out.slice(0, o);
}

/**
 * A dots series thinned to a point per cell of a grid, with the cell's size: wherever a cell is no larger
 * than a pixel it draws the same dots as the whole series.
 */
export interface CoarseDots {
  data: Float64Array;
  cellMs: number;
  cellValue: number;
}

/**
 * Thins a dots series (t, y) pairs for drawing: of each run of consecutive points in one cell of a grid
 * of `columns` equal spans of time by `rows` equal spans of the series' own y range, it keeps the first,
 * and the series' last, lowest and highest points: the copy spans the same values, so a chart of the
 * whole run takes the same y axis from it. A run's sends and ACKs climb along a curve, several to a
 * cell. Null when that leaves most of the points (a short or scattered series): the whole one draws
 * about as fast.
 */
export function coarseDots(d: Float64Array, start: number, end: number, columns: number, rows: number): CoarseDots | null {
  const n = d.length >> 1;
  if (n <= columns) return null;
  let lo = Infinity;
  let hi = -Infinity;
  let lowest = 0;
  let highest = 0;
  for (let i = 0; i < n; i++) {
    const v = d[2 * i + 1];
    if (v < lo) {
      lo = v;
      lowest = i;
    }
    if (v > hi) {
      hi = v;
      highest = i;
    }
  }
  const cellMs = (end - start) / columns;
  const cellValue = (hi - lo) / rows || 1;
  const out = new Float64Array(d.length);
  let o = 0;
  let cell = Number.NaN;
  for (let i = 0; i < n; i++) {
    const c = Math.floor((d[2 * i] - start) / cellMs) * (rows + 1) + Math.floor((d[2 * i + 1] - lo) / cellValue);
    if (c === cell && i !== lowest && i !== highest) continue;
    cell = c;
    out[o++] = d[2 * i];
    out[o++] = d[2 * i + 1];
  }
  if (out[o - 2] !== d[2 * n - 2] || out[o - 1] !== d[2 * n - 1]) {
    out[o++] = d[2 * n - 2];
    out[o++] = d[2 * n - 1];
  }
  return o > d.length / 2 ? null : { data: out.slice(0, o), cellMs, cellValue };
}
