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
  const period = tracePeriod(trace);
  const times = trace.times;
  const total = once ? times.length : Infinity;
  const opportunityAt = (k: number) => times[k % times.length] + Math.floor(k / times.length) * period;
  const delays: number[] = [];
  let k = 0;
  for (let t = 0; t < durationMs; t++) {
    while (k < total && opportunityAt(k) <= t) k++;
    if (k >= total) break;
    delays.push(opportunityAt(k) - t);
  }
  let used = 0;
  while (used < total && opportunityAt(used) <= durationMs) used++;
  const span = Math.min(durationMs, opportunityAt(Math.max(0, used - 1)));
  return { throughputMbps: span > 0 ? (used * OPPORTUNITY_BYTES * 8) / span / 1000 : 0, delay95: percentile(delays) };
}
