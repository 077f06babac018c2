import type { EventLog } from '../log/eventLog.ts';

/**
 * Signal delay, as mm-throughput-graph computes it: for every millisecond t from the first to the last
 * arrival (of packets that left the bottleneck), the departure time of the first packet that arrived at
 * or after t, minus t (of several arriving together, the one that left first). One sample per ms.
 */
export function signalDelays(arrivalsIn: ArrayLike<number>, departuresIn: ArrayLike<number>): Float64Array {
  const n = arrivalsIn.length;
  if (n === 0) return new Float64Array(0);
  let arrivals = arrivalsIn;
  let departures = departuresIn;
  // A FIFO bottleneck logs departures in arrival order already; sort only when it did not.
  for (let i = 1; i < n; i++) {
    if (arrivalsIn[i] < arrivalsIn[i - 1] || (arrivalsIn[i] === arrivalsIn[i - 1] && departuresIn[i] < departuresIn[i - 1])) {
      const order = Array.from({ length: n }, (_, k) => k).sort((a, b) => arrivalsIn[a] - arrivalsIn[b] || departuresIn[a] - departuresIn[b]);
      arrivals = Float64Array.from(order, (k) => arrivalsIn[k]);
      departures = Float64Array.from(order, (k) => departuresIn[k]);
      break;
    }
  }
  const first = Math.floor(arrivals[0]);
  const last = Math.floor(arrivals[n - 1]);
  const out = new Float64Array(last - first + 1);
  let k = 0;
  for (let t = first; t <= last; t++) {
    while (k < n && arrivals[k] < t) k++;
    out[t - first] = departures[k] - t;
  }
  return out;
}

/** The last run's signal delays over all its flows, by log: the summary and the charts both ask. */
const memo = new WeakMap<EventLog, { length: number; delays: Float64Array }>();

/**
 * The signal delays of all of a log's flows together, from the bottleneck's arrivals and departures the
 * caller collected from the log; computed once per log and length. The result is shared: do not reorder it.
 */
export function runSignalDelays(log: EventLog, arrivals: ArrayLike<number>, departures: ArrayLike<number>): Float64Array {
  const known = memo.get(log);
  if (known && known.length === log.length) return known.delays;
  const delays = signalDelays(arrivals, departures);
  memo.set(log, { length: log.length, delays });
  return delays;
}
