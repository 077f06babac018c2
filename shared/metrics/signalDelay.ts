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
 * The same by a histogram of the delays, or null when the packets are out of order, a departure is off
 * the grid or before its arrival's millisecond, or the delays span too wide a range. A delay is at least
 * 0 (a departure is no earlier than its arrival), so the histogram starts at 0; a pass that finds a
 * delay past its end starts again with one that holds it.
 */
function histogramPercentile(arrivals: ArrayLike<number>, departures: ArrayLike<number>, p: number): number | null {
  const n = arrivals.length;
  // times from 0 to 2^31 ms, so that a millisecond is an int32 (| 0) in the pass; ordered arrivals all are
  if (!(arrivals[0] >= 0 && arrivals[n - 1] < 2 ** 31)) return null;
  const samples = (arrivals[n - 1] | 0) - (arrivals[0] | 0) + 1;
  let steps = lentSteps();
  let used = stepsOfRanges(arrivals, departures, steps);
  while (used > steps.length && used <= 4 * samples + 65_536) {
    giveBackSteps(steps, -1);
    steps = lentSteps(2 * used);
    used = stepsOfRanges(arrivals, departures, steps);
  }
  let found: number | null = null;
  if (used >= 0 && used <= steps.length) {
    let k = Math.min(samples - 1, Math.floor(p * samples));
    let count = 0;
    // the bins count every millisecond once: the scan ends by the last bin used
    for (let v = 0; v < used && found === null; v++) {
      count += steps[v];
      k -= count;
      if (k < 0) found = v;
    }
  }
  giveBackSteps(steps, used);
  return found;
}

/**
 * Packet k adds one to each delay of its range of milliseconds, (last of k − 1, last of k], as a
 * difference array: +1 at its smallest delay, −1 past its largest. Returns how many bins that takes,
 * or −1 when the packets are not as a histogram needs them; when `steps` has fewer, the pass stopped at
 * the first delay past its end. Every packet counts alike: on a busy link about half share a millisecond
 * with the one before (an empty range: +1 and −1 in one bin), in no order a branch could predict.
 */
function stepsOfRanges(arrivals: ArrayLike<number>, departures: ArrayLike<number>, steps: Int32Array): number {
  const size = steps.length;
  const first = arrivals[0] | 0;
  let previous = -Infinity;
  let previousDeparture = -Infinity;
  let done = -1;
  let used = 0;
  for (let k = 0; k < arrivals.length; k++) {
    const a = arrivals[k];
    const d = departures[k];
    // a FIFO never departs out of order: that test first, so the arrivals' ties cost no guess
    if (a < previous || (d < previousDeparture && a === previous) || (d | 0) !== d) return -1;
    previous = a;
    previousDeparture = d;
    const last = (a | 0) - first;
    const wait = (d | 0) - first;
    if (wait < last) return -1;
    if (wait - done >= size) return wait - done + 1;
    steps[wait - last]++;
    steps[wait - done]--;
    if (wait - done >= used) used = wait - done + 1;
    done = last;
  }
  return used;
}

/**
 * A zeroed histogram lent from one call to the next: making a fresh one costs more than a small flow's
 * packets take to count (a run of a hundred flows takes a hundred signal delays).
 */
let spareSteps: Int32Array = new Int32Array(0);
const SPARE_STEPS_MAX = 1 << 18;

/** At least `bins` zeroed bins (8192 first: most delays are under 8 s). */
function lentSteps(bins = 8192): Int32Array {
  const steps = spareSteps.length >= bins ? spareSteps : new Int32Array(bins);
  spareSteps = new Int32Array(0);
  return steps;
}

/** Zeroes the first `used` bins (all when `used` is not a count of them) and keeps the histogram for the next call unless it is large. */
function giveBackSteps(steps: Int32Array, used: number): void {
  if (steps.length > SPARE_STEPS_MAX || steps.length < spareSteps.length) return;
  if (used >= 0 && used <= steps.length) steps.fill(0, 0, used);
  else steps.fill(0);
  spareSteps = steps;
}

/** The packets ordered by arrival, and of several arriving together, by departure. */
function sortedByArrival(arrivals: ArrayLike<number>, departures: ArrayLike<number>): [Float64Array, Float64Array] {
  const order = Array.from({ length: arrivals.length }, (_, k) => k).sort((a, b) => arrivals[a] - arrivals[b] || departures[a] - departures[b]);
  return [Float64Array.from(order, (k) => arrivals[k]), Float64Array.from(order, (k) => departures[k])];
}
