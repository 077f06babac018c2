import { OPPORTUNITY_BYTES, tracePeriod, type Trace } from '../trace/mahimahi.ts';
import { percentile } from './percentile.ts';

export interface OmniscientPoint {
  throughputMbps: number;
  delay95: number;
}

/**
 * The ideal corner of the throughput–delay plane for a trace over `durationMs`: every opportunity used,
 * and the only delay the wait for the next opportunity — at each millisecond t, the first opportunity
 * after t (mm-link serves a packet arriving at t no earlier than that) minus t.
 */
export function omniscientPoint(trace: Trace, durationMs: number, once = false): OmniscientPoint {
  const key = `${durationMs}/${once}`;
  let byRun = memo.get(trace);
  if (!byRun) memo.set(trace, (byRun = new Map()));
  let point = byRun.get(key);
  if (!point) byRun.set(key, (point = compute(trace, durationMs, once)));
  return point;
}

/** A trace's point depends only on the trace and the run's length: sweeps ask for it again and again. */
const memo = new WeakMap<Trace, Map<string, OmniscientPoint>>();

function compute(trace: Trace, durationMs: number, once: boolean): OmniscientPoint {
  const period = tracePeriod(trace);
  const times = trace.times;
  const total = once ? times.length : Infinity;
  const next = new Opportunities(times, period);
  const delays = new Float64Array(Math.max(0, Math.ceil(durationMs)));
  let n = 0;
  for (let t = 0; t < durationMs; t++) {
    while (next.k < total && next.at < t) next.advance();
    if (next.k >= total) break;
    delays[n++] = next.at - t;
  }
  const last = new Opportunities(times, period);
  let previous = 0;
  while (last.k < total && last.at <= durationMs) {
    previous = last.at;
    last.advance();
  }
  const used = last.k;
  const span = Math.min(durationMs, used > 0 ? previous : times[0]);
  return { throughputMbps: span > 0 ? (used * OPPORTUNITY_BYTES * 8) / span / 1000 : 0, delay95: percentile(delays.subarray(0, n)) };
}

/** The trace's opportunities in order, looping with its period: the k-th is at `at`. */
class Opportunities {
  k = 0;
  at: number;
  private index = 0;
  private base = 0;

  constructor(
    private readonly times: Int32Array,
    private readonly period: number,
  ) {
    this.at = times[0];
  }

  advance(): void {
    this.k++;
    if (++this.index === this.times.length) {
      this.index = 0;
      this.base += this.period;
    }
    this.at = this.times[this.index] + this.base;
  }
}
