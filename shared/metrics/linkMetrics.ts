import type { EventLog } from '../log/eventLog.ts';
import { K } from '../log/kinds.ts';
import { percentileInPlace } from './percentile.ts';
import { type Samples, SampleStream } from './sampleStream.ts';
import { signalDelayPercentile } from './signalDelay.ts';

export interface LinkMetrics {
  /** Bits that left the bottleneck ÷ (last − first departure), Mbit/s. */
  throughputMbps: number;
  packetsDelivered: number;
  /** Per-packet queueing delay (departure − arrival at the bottleneck), ms. */
  queueDelayMean: number;
  queueDelay95: number;
  /** 95th percentile of the signal delay, ms ("delay95"). */
  delay95: number;
  /** 95th percentile of the end-to-end one-way delay (propagation included), ms. */
  oneWay95: number;
  /** Throughput (Mbit/s) ÷ delay95 (s). */
  power: number;
  /** ln(throughput Mbit/s ÷ delay95 ms), the contest's score. */
  score: number;
  drops: number;
}

/**
 * The contest's figures for one flow, or for all flows together when `flow` is omitted, from one pass
 * over the log (or from the samples a log that kept no rows took as they came).
 */
export function linkMetrics(log: EventLog, flow = -1): LinkMetrics {
  const s = log.stream instanceof SampleStream ? log.stream.samples(flow) : collect(log, flow);
  const n = s.departures.length;
  const span = n > 1 ? s.departures[n - 1] - s.departures[0] : 0;
  const throughputMbps = span > 0 ? s.bits / span / 1000 : 0;
  const delay95 = signalDelayPercentile(s.arrivals, s.departures);
  return {
    throughputMbps,
    packetsDelivered: n,
    queueDelayMean: n > 0 ? s.queueDelaySum / n : NaN,
    queueDelay95: percentileInPlace(s.queueDelays),
    delay95,
    oneWay95: percentileInPlace(s.oneWay),
    power: throughputMbps / (delay95 / 1000),
    score: Math.log(throughputMbps / delay95),
    drops: s.drops,
  };
}

/**
 * Collects a flow's samples (all flows' when `flow` is negative): the rows that matter first, then their
 * values. The samples do not outlive the call (the signal delays are a fresh array), so they are written
 * into scratch columns kept from one call to the next.
 */
function collect(log: EventLog, flow: number): Samples {
  const { t, value, bytes } = log.columns;
  const rows = rowsOfFlow(log, flow);
  const n = rows.departs.length;
  const arrivals = scratch(0, n, Float64Array);
  const departures = scratch(1, n, Float64Array);
  const queueDelays = scratch(2, n, Float64Array);
  let bits = 0;
  let sum = 0;
  for (let j = 0; j < n; j++) {
    const i = rows.departs[j];
    const q = value[i];
    departures[j] = t[i];
    arrivals[j] = t[i] - q;
    queueDelays[j] = q;
    sum += q;
    bits += bytes[i] * 8;
  }
  const oneWay = scratch(3, rows.delivers.length, Float64Array);
  for (let j = 0; j < oneWay.length; j++) oneWay[j] = value[rows.delivers[j]];
  return { arrivals, departures, queueDelays, queueDelaySum: sum, oneWay, bits, drops: rows.drops };
}

/**
 * The indices of a flow's departure and delivery rows, and its drops. Each row's index is written at
 * the next free slot and kept only when the row is of the kind, so that the kinds' mixed order costs
 * no branch per row (twice as fast on a contest run's log).
 */
function rowsOfFlow(log: EventLog, flow: number): { departs: Int32Array; delivers: Int32Array; drops: number } {
  const { kind, flow: flows } = log.columns;
  // a flow has at most as many rows of a kind as all flows: one slot more for the write past the last kept
  const departs = scratch(4, log.count(K.depart) + 1, Int32Array);
  const delivers = scratch(5, log.count(K.deliver) + 1, Int32Array);
  let d = 0;
  let w = 0;
  let drops = 0;
  for (let i = 0; i < kind.length; i++) {
    if (flow >= 0 && flows[i] !== flow) continue;
    const k = kind[i];
    departs[d] = i;
    d += Number(k === K.depart);
    delivers[w] = i;
    w += Number(k === K.deliver);
    drops += Number(k === K.drop);
  }
  return { departs: departs.subarray(0, d), delivers: delivers.subarray(0, w), drops };
}

/**
 * Scratch columns by slot, each grown to the largest size asked. Fresh ones each run (2 MB for a contest
 * run) cost their zeroing and, as memory outside the heap, extra collections. A view of its first `n`.
 */
const scratchColumns: (Float64Array | Int32Array)[] = [];

function scratch<T extends Float64Array | Int32Array>(slot: number, n: number, Column: { new (n: number): T }): T {
  const kept = scratchColumns[slot];
  const column = kept instanceof Column && kept.length >= n ? kept : (scratchColumns[slot] = new Column(n));
  return column.subarray(0, n) as T;
}
