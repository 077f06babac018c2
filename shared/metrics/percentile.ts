/**
 * The 95th percentile as mm-throughput-graph takes it: the element at index floor(0.95 · n) of the
 * sorted samples. Found by selection in linear time rather than by sorting. NaN for no samples.
 */
export function percentile(values: ArrayLike<number>, p = 0.95): number {
  const n = values.length;
  if (n === 0) return NaN;
  const k = Math.min(n - 1, Math.floor(p * n));
  // counting leaves the values as they are: copy them only for selection
  return byCounting(values, k) ?? select(Float64Array.from(values), k);
}

/** The same, reordering a scratch array instead of copying it. */
export function percentileInPlace(values: Float64Array, p = 0.95): number {
  const n = values.length;
  if (n === 0) return NaN;
  const k = Math.min(n - 1, Math.floor(p * n));
  return byCounting(values, k) ?? select(values, k);
}

/**
 * The k-th smallest of whole numbers from 0 to a modest bound, by counting in one pass (a trace link's
 * delays are whole milliseconds); null for any other value, so selection takes over. The counts widen
 * when a value goes past their end. Below COUNT_FROM values selection is quicker than a pass over
 * thousands of counts (one flow's samples of a run of many).
 */
const COUNT_FROM = 1024;

function byCounting(values: ArrayLike<number>, k: number): number | null {
  const n = values.length;
  if (n < COUNT_FROM) return null;
  let counts = new Uint32Array(1024);
  for (let i = countInto(counts, values, 0); i < n; i = countInto(counts, values, i)) {
    const v = values[i];
    if (v !== Math.floor(v) || v < 0 || v > 4 * n + 65_536) return null;
    const wider = new Uint32Array(2 * v + 2);
    wider.set(counts);
    counts = wider;
  }
  // the counts hold every value: the scan ends by their end
  for (let v = 0; v < counts.length; v++) {
    k -= counts[v];
    if (k < 0) return v;
  }
  return null;
}

/**
 * Counts `values` from `from` on until one is not a whole number from 0 to the counts' end; returns
 * where it stopped. The counts are a constant here, so their bound is known at every step.
 */
function countInto(counts: Uint32Array, values: ArrayLike<number>, from: number): number {
  const size = counts.length;
  for (let i = from; i < values.length; i++) {
    // a fraction, a negative number or one past 2^31 (as an int32, not the value) stops here
    const v = values[i] | 0;
    if (v !== values[i] || v < 0 || v >= size) return i;
    counts[v]++;
  }
  return values.length;
}

/** The k-th smallest element (0-based); reorders `a`. Hoare's selection with a median-of-three pivot. */
export function select(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < a[lo]) swap(a, mid, lo);
    if (a[hi] < a[lo]) swap(a, hi, lo);
    if (a[hi] < a[mid]) swap(a, hi, mid);
    const pivot = a[mid];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) swap(a, i++, j--);
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k];
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}
