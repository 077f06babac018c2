import type { EventLog } from '../log/eventLog.ts';
import { ESTIMATES } from '../log/kinds.ts';
import { OPPORTUNITY_BYTES, tracePeriod, type Trace } from '../trace/mahimahi.ts';
import { pairs, SeriesPass } from './seriesPass.ts';
import { signalDelays } from './signalDelay.ts';
import type { CoarseDots } from './thin.ts';

/**
 * What the charts draw, derived from a run's log. Point series are interleaved (t, y) pairs in time
 * order, so a renderer can find "up to the playhead" by binary search and draw without allocating.
 */
export interface RunSeries {
  endMs: number;
  /** Data sent (t, seq or offset); retransmissions apart. */
  sends: Float64Array;
  retransmits: Float64Array;
  /** ACKs or offset replies reaching the sender (t, seq or offset). */
  acks: Float64Array;
  /** Packets lost anywhere (t, seq). */
  drops: Float64Array;
  /** The controller's window (or burst) after each event (t, packets). */
  window: Float64Array;
  timeouts: Float64Array;
  /** Losses the sender inferred from ACKs, before any timer (t, seq). */
  losses: Float64Array;
  /** Packets an AQM with ECN on marked CE instead of dropping (t, seq). */
  marks: Float64Array;
  /** Controller estimates by name (t, value). */
  estimates: Record<string, Float64Array>;
  /** Bottleneck throughput per bin (bin start, Mbit/s), and the link's capacity when it is a trace. */
  binMs: number;
  throughput: Float64Array;
  capacity: Float64Array | null;
  /** Per-packet queueing delay (departure, ms). */
  queueDelay: Float64Array;
  /** Signal delay (t, ms), the maximum of each bucket so peaks survive decimation. */
  signalDelay: Float64Array;
  /** Packets in the bottleneck queue (t, packets), bucket maxima. */
  queue: Float64Array;
  /** Squished periods: [start, end] pairs. */
  squished: Float64Array;
  /** Dots series thinned for drawing the whole run (the full ones draw a zoomed part). */
  coarse?: Partial<Record<DotSeries, CoarseDots>>;
  /** The dots series with a coarse copy are that copy: the whole ones are kept where the run was made. */
  coarseOnly?: true;
}

/** The series drawn as a dot per packet. */
export const DOT_SERIES = ['sends', 'acks', 'retransmits', 'drops', 'queueDelay'] as const;
export type DotSeries = (typeof DOT_SERIES)[number];

const MAX_LINE_POINTS = 3000;

/** `v` (> 0) rounded up, or down, to 1, 2 or 5 × a power of ten. */
export function roundTo125(v: number, up = true): number {
  const p = Math.pow(10, Math.floor(Math.log10(v)));
  const m = v / p;
  if (up) return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
  return (m >= 5 ? 5 : m >= 2 ? 2 : 1) * p;
}

/** A bin width near `span / target`, rounded to 1, 2 or 5 × a power of ten, at least 1 ms. */
export const niceBin = (span: number, target = 300): number => roundTo125(Math.max(1, span / target));

/**
 * Keeps the maximum of each of about MAX_LINE_POINTS buckets of a (t, y) series; the i-th time is
 * `times[i]`, or `first + i` on a regular grid of milliseconds (`times` null: no array of its times).
 */
function decimateMax(n: number, times: ArrayLike<number> | null, first: number, ys: ArrayLike<number>, start: number, end: number): Float64Array {
  if (n <= MAX_LINE_POINTS) {
    const out = pairs(n);
    for (let i = 0; i < n; i++) {
      out[2 * i] = times === null ? first + i : times[i];
      out[2 * i + 1] = ys[i];
    }
    return out;
  }
  const bucket = (end - start) / MAX_LINE_POINTS;
  // times are in order: at most one pair per bucket from the first time's to the last's
  const [firstT, lastT] = times === null ? [first, first + n - 1] : [times[0], times[n - 1]];
  const buckets = Math.floor((lastT - start) / bucket) - Math.floor((firstT - start) / bucket) + 1;
  const out = new Float64Array(2 * Math.min(n, buckets));
  let o = 0;
  let b = -1;
  let bt = 0;
  let by = -Infinity;
  for (let i = 0; i < n; i++) {
    // written out rather than through a helper: a browser's optimiser may leave the call in this loop
    const t = times === null ? first + i : times[i];
    const k = Math.floor((t - start) / bucket);
    if (k !== b) {
      if (b >= 0) {
        out[o++] = bt;
        out[o++] = by;
      }
      b = k;
      bt = t;
      by = -Infinity;
    }
    if (ys[i] > by) by = ys[i];
  }
  if (b >= 0) {
    out[o++] = bt;
    out[o++] = by;
  }
  return out.slice(0, o);
}

/** Every series of a run, in one pass over its log. */
export function runSeries(log: EventLog, endMs: number, trace: Trace | null, once = false): RunSeries {
  const binMs = niceBin(endMs);
  const bins = Math.max(1, Math.ceil(endMs / binMs));
  const pass = new SeriesPass(log.kindCounts(), binMs, bins);
  pass.rows(log.columns, log.length);
  pass.end(endMs);
  const throughput = pairs(bins);
  for (let b = 0; b < bins; b++) {
    throughput[2 * b] = b * binMs;
    throughput[2 * b + 1] = pass.bits[b] / binMs / 1000;
  }
  const sd = signalDelays(pass.arrivals, pass.departures);
  const first = pass.arrivals.length ? Math.floor(pass.arrivals[0]) : 0;
  const estimates: Record<string, Float64Array> = {};
  ESTIMATES.forEach((name, k) => {
    if (pass.estimates[k].length) estimates[name] = Float64Array.from(pass.estimates[k]);
  });
  return {
    endMs,
    sends: pass.sends.data,
    retransmits: pass.retransmits.data,
    acks: pass.acks.data,
    drops: pass.drops.data,
    window: pass.window.data,
    timeouts: pass.timeouts.data,
    losses: pass.losses.data,
    marks: pass.marks.data,
    estimates,
    binMs,
    throughput,
    capacity: trace ? capacitySeries(trace, binMs, bins, once) : null,
    queueDelay: pass.queueDelay.data,
    signalDelay: decimateMax(sd.length, null, first, sd, first, first + sd.length),
    queue: decimateMax(pass.queuePoints, pass.queueT, 0, pass.queueY, 0, endMs),
    squished: Float64Array.from(pass.squished),
  };
}

/** The trace's capacity per bin (bin start, Mbit/s): opportunities × 1504 bytes. */
export function capacitySeries(trace: Trace, binMs: number, bins: number, once: boolean): Float64Array {
  const period = tracePeriod(trace);
  const counts = new Float64Array(bins);
  const end = bins * binMs;
  for (let base = 0; base < end; base += period) {
    for (let k = 0; k < trace.times.length; k++) {
      const t = base + trace.times[k];
      if (t >= end) break;
      counts[Math.floor(t / binMs)]++;
    }
    if (once) break;
  }
  const out = pairs(bins);
  for (let b = 0; b < bins; b++) {
    out[2 * b] = b * binMs;
    out[2 * b + 1] = (counts[b] * OPPORTUNITY_BYTES * 8) / binMs / 1000;
  }
  return out;
}

/** Every typed array of the series, for handing over as transferables. */
export function seriesBuffers(s: RunSeries): ArrayBuffer[] {
  const arrays = [s.sends, s.retransmits, s.acks, s.drops, s.window, s.timeouts, s.losses, s.marks, s.throughput, s.queueDelay, s.signalDelay, s.queue, s.squished, ...Object.values(s.estimates)];
  if (s.capacity) arrays.push(s.capacity);
  for (const c of Object.values(s.coarse ?? {})) arrays.push(c.data);
  // a series may be its own coarse copy, and a buffer goes in a transfer list once
  return [...new Set(arrays.map((x) => x.buffer as ArrayBuffer))];
}
