/**
 * Signal delay, as mm-throughput-graph computes it: for every millisecond t from the first to the last
 * arrival (of packets that left the bottleneck), the departure time of the first packet that arrived at
 * or after t, minus t. Returns one sample per millisecond.
 */
export function signalDelays(arrivals: ArrayLike<number>, departures: ArrayLike<number>): Float64Array {
  const n = arrivals.length;
  if (n === 0) return new Float64Array(0);
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => arrivals[a] - arrivals[b] || departures[a] - departures[b]);
  // earliest departure among packets arriving at or after each position in arrival order
  const suffixMin = new Float64Array(n);
  let m = Infinity;
  for (let k = n - 1; k >= 0; k--) {
    m = Math.min(m, departures[order[k]]);
    suffixMin[k] = m;
  }
  const first = Math.floor(arrivals[order[0]]);
  const last = Math.floor(arrivals[order[n - 1]]);
  const out = new Float64Array(last - first + 1);
  let k = 0;
  for (let t = first; t <= last; t++) {
    while (k < n && arrivals[order[k]] < t) k++;
    out[t - first] = suffixMin[k] - t;
  }
  return out;
}
