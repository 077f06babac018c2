import type { EventLog } from '../log/eventLog.ts';

/**
 * Signal delay, as mm-throughput-graph computes it: for every millisecond t from the first to the last
 * arrival (of packets that left the bottleneck), the departure time of the first packet that arrived at
 * or after t, minus t (of several arriving together, the one that left first). One sample per ms.
 */
export function signalDelays(arrivals: ArrayLike<number>, departures: ArrayLike<number>): Float64Array {
  const n = arrivals.length;
  if (n === 0) return new Float64Array(0);
  return inArrivalOrder(arrivals, departures) ?? inArrivalOrder(...sortedByArrival(arrivals, departures))!;
}

/**
 * The delays when the packets come in arrival order (a FIFO bottleneck logs them so), else null: the
 * milliseconds after one packet's arrival up to the next's all wait for the next packet's departure.
 */
function inArrivalOrder(arrivals: ArrayLike<number>, departures: ArrayLike<number>): Float64Array | null {
  const n = arrivals.length;
  const first = Math.floor(arrivals[0]);
  // out of order, the last arrival may come before the first: the loop finds that and gives up
  const out = new Float64Array(Math.max(0, Math.floor(arrivals[n - 1]) - first + 1));
  let j = 0;
  let previous = -Infinity;
  let previousDeparture = -Infinity;
  for (let k = 0; k < n; k++) {
    const a = arrivals[k];
    const d = departures[k];
    if (a < previous || (a === previous && d < previousDeparture)) return null;
    previous = a;
    previousDeparture = d;
    // by a whole-number index rather than the millisecond: ms first + j, its delay the same double
    for (const last = Math.floor(a) - first; j <= last; j++) out[j] = d - (first + j);
  }
  return out;
}

/** The packets ordered by arrival, and of several arriving together, by departure. */
function sortedByArrival(arrivals: ArrayLike<number>, departures: ArrayLike<number>): [Float64Array, Float64Array] {
  const order = Array.from({ length: arrivals.length }, (_, k) => k).sort((a, b) => arrivals[a] - arrivals[b] || departures[a] - departures[b]);
  return [Float64Array.from(order, (k) => arrivals[k]), Float64Array.from(order, (k) => departures[k])];
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
