import { percentileInPlace } from './percentile.ts';

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

/**
 * The `p`-th percentile of the signal delays, as `percentile(signalDelays(arrivals, departures), p)`
 * takes it, without listing them: the milliseconds that wait for one packet's departure hold a run of
 * consecutive delays, so each packet adds one to a range of a histogram's bins. That needs the packets
 * in arrival order and whole-millisecond departures (a trace link's); otherwise the delays are listed.
 */
export function signalDelayPercentile(arrivals: ArrayLike<number>, departures: ArrayLike<number>, p = 0.95): number {
  const n = arrivals.length;
  if (n === 0) return NaN;
  return histogramPercentile(arrivals, departures, p) ?? percentileInPlace(signalDelays(arrivals, departures), p);
}

/**
 * The same by a histogram of the delays' ranges, or null when the packets are out of order, a departure is
 * off the grid or the delays span too wide a range. Packet k adds one over its range of milliseconds,
 * (last of k − 1, last of k]; a packet arriving in the millisecond of the one before has an empty range.
 * Both passes treat every packet alike, empty range or not: on a busy link about half the packets share a
 * millisecond with the one before, in no order a branch could predict.
 */
function histogramPercentile(arrivals: ArrayLike<number>, departures: ArrayLike<number>, p: number): number | null {
  const n = arrivals.length;
  const first = Math.floor(arrivals[0]);
  const samples = Math.floor(arrivals[n - 1]) - first + 1;
  if (samples <= 0) return null;
  // bounds of the delays, d − first − j for j in the range: an empty range's bounds hold no delay but widen nothing that matters
  let lo = Infinity;
  let hi = -Infinity;
  let previous = -Infinity;
  let previousDeparture = -Infinity;
  let done = -1;
  for (let k = 0; k < n; k++) {
    const a = arrivals[k];
    const d = departures[k];
    // a FIFO never departs out of order: that test first, so the arrivals' ties cost no guess
    if (a < previous || (d < previousDeparture && a === previous) || d !== Math.floor(d)) return null;
    previous = a;
    previousDeparture = d;
    const last = Math.floor(a) - first;
    if (d - first - last < lo) lo = d - first - last;
    if (d - first - done - 1 > hi) hi = d - first - done - 1;
    done = last;
  }
  if (hi - lo > 4 * samples + 65_536) return null;
  // a difference array: +1 where a packet's range starts, −1 past its end (the same bin for an empty range)
  const steps = new Int32Array(hi - lo + 2);
  done = -1;
  for (let k = 0; k < n; k++) {
    const last = Math.floor(arrivals[k]) - first;
    const d = departures[k] - first - lo;
    steps[d - last]++;
    steps[d - done]--;
    done = last;
  }
  const wanted = Math.min(samples - 1, Math.floor(p * samples));
  let count = 0;
  let seen = 0;
  for (let v = 0; v < steps.length; v++) {
    count += steps[v];
    seen += count;
    if (seen > wanted) return v + lo;
  }
  return hi;
}

/** The packets ordered by arrival, and of several arriving together, by departure. */
function sortedByArrival(arrivals: ArrayLike<number>, departures: ArrayLike<number>): [Float64Array, Float64Array] {
  const order = Array.from({ length: arrivals.length }, (_, k) => k).sort((a, b) => arrivals[a] - arrivals[b] || departures[a] - departures[b]);
  return [Float64Array.from(order, (k) => arrivals[k]), Float64Array.from(order, (k) => departures[k])];
}
