/**
 * The 95th percentile as mm-throughput-graph takes it: sort, then the element at index
 * floor(0.95 · n). NaN for no samples.
 */
export function percentile(values: ArrayLike<number>, p = 0.95): number {
  const n = values.length;
  if (n === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(n - 1, Math.floor(p * n))];
}

export function mean(values: ArrayLike<number>): number {
  if (values.length === 0) return NaN;
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i];
  return s / values.length;
}
