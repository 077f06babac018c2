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
 * The k-th smallest of whole numbers in a modest range, by counting (a trace link's delays are whole
 * milliseconds); null when the values are not such, so selection takes over.
 */
function byCounting(values: ArrayLike<number>, k: number): number | null {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== Math.floor(v)) return null;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (max - min > 4 * values.length + 65_536) return null;
  const counts = new Uint32Array(max - min + 1);
  for (let i = 0; i < values.length; i++) counts[values[i] - min]++;
  let seen = 0;
  for (let v = 0; v < counts.length; v++) {
    seen += counts[v];
    if (seen > k) return v + min;
  }
  return max;
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
