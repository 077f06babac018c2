import type { EventLog } from '../log/eventLog.ts';
import { K } from '../log/kinds.ts';

/** Jain's fairness index: (Σx)² / (n·Σx²); 1 when all equal, 1/n when one takes everything. */
export function jain(xs: ArrayLike<number>): number {
  let s = 0;
  let s2 = 0;
  for (let i = 0; i < xs.length; i++) {
    s += xs[i];
    s2 += xs[i] * xs[i];
  }
  return s2 === 0 ? NaN : (s * s) / (xs.length * s2);
}

export interface FlowSeries {
  /** Interval start times, ms. */
  t: Float64Array;
  /** Per flow, Mbit/s through the bottleneck in each interval. */
  perFlow: Float64Array[];
  /** Jain's index over the flows active in each interval (started, not finished); NaN when none sent. */
  jain: Float64Array;
}

/**
 * Per-flow throughput and Jain's index over time, from bottleneck departures. A flow is active in an
 * interval between its start and its finish (`activeUntil`, Infinity if it never finished).
 */
export function flowSeries(log: EventLog, flows: number, intervalMs: number, endMs: number, activeFrom: number[], activeUntil: number[]): FlowSeries {
  const bins = Math.max(1, Math.ceil(endMs / intervalMs));
  const perFlow = Array.from({ length: flows }, () => new Float64Array(bins));
  const c = log.columns;
  for (let i = 0; i < log.length; i++) {
    if (c.kind[i] !== K.depart) continue;
    const b = Math.min(bins - 1, Math.floor(c.t[i] / intervalMs));
    perFlow[c.flow[i]][b] += (c.bytes[i] * 8) / intervalMs / 1000;
  }
  const t = new Float64Array(bins);
  const index = new Float64Array(bins);
  for (let b = 0; b < bins; b++) {
    t[b] = b * intervalMs;
    const active: number[] = [];
    for (let f = 0; f < flows; f++) {
      if (activeFrom[f] <= t[b] && t[b] + intervalMs <= activeUntil[f]) active.push(perFlow[f][b]);
    }
    index[b] = active.length ? jain(active) : NaN;
  }
  return { t, perFlow, jain: index };
}
