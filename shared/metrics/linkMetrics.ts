import type { EventLog } from '../log/eventLog.ts';
import { K } from '../log/kinds.ts';
import { percentile, percentileInPlace } from './percentile.ts';
import { runSignalDelays, signalDelays } from './signalDelay.ts';

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

/** What the figures are made of: the bottleneck's departures of a flow (or of all flows) and its deliveries. */
interface Samples {
  arrivals: Float64Array;
  departures: Float64Array;
  queueDelays: Float64Array;
  /** Sum of the queue delays, added in log order (what `mean` would add). */
  queueDelaySum: number;
  oneWay: Float64Array;
  bits: number;
  drops: number;
}

/**
 * The contest's figures for one flow, or for all flows together when `flow` is omitted. The log is read
 * in one pass (two for one flow of several) by loops of their own, each with no branch it never takes,
 * so the compiled loop a run warms up serves the next run too.
 */
export function linkMetrics(log: EventLog, flow = -1): LinkMetrics {
  const s = flow < 0 ? allFlows(log) : oneFlow(log, flow);
  const n = s.departures.length;
  const span = n > 1 ? s.departures[n - 1] - s.departures[0] : 0;
  const throughputMbps = span > 0 ? s.bits / span / 1000 : 0;
  const delay95 = flow < 0 ? percentile(runSignalDelays(log, s.arrivals, s.departures)) : percentileInPlace(signalDelays(s.arrivals, s.departures));
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

function samples(departs: number, delivers: number): Samples {
  const arrivals = new Float64Array(departs);
  const departures = new Float64Array(departs);
  const queueDelays = new Float64Array(departs);
  return { arrivals, departures, queueDelays, queueDelaySum: 0, oneWay: new Float64Array(delivers), bits: 0, drops: 0 };
}

function allFlows(log: EventLog): Samples {
  const s = samples(log.count(K.depart), log.count(K.deliver));
  const { t, kind, value, bytes } = log.columns;
  const { arrivals, departures, queueDelays, oneWay } = s;
  let bits = 0;
  let drops = 0;
  let sum = 0;
  let d = 0;
  let w = 0;
  for (let i = 0; i < kind.length; i++) {
    const k = kind[i];
    if (k === K.depart) {
      const q = value[i];
      departures[d] = t[i];
      arrivals[d] = t[i] - q;
      queueDelays[d++] = q;
      sum += q;
      bits += bytes[i] * 8;
    } else if (k === K.deliver) oneWay[w++] = value[i];
    else if (k === K.drop) drops++;
  }
  s.bits = bits;
  s.drops = drops;
  s.queueDelaySum = sum;
  return s;
}

function oneFlow(log: EventLog, flow: number): Samples {
  const { t, kind, flow: flows, value, bytes } = log.columns;
  let departs = 0;
  let delivers = 0;
  for (let i = 0; i < kind.length; i++) {
    if (flows[i] !== flow) continue;
    if (kind[i] === K.depart) departs++;
    else if (kind[i] === K.deliver) delivers++;
  }
  const s = samples(departs, delivers);
  const { arrivals, departures, queueDelays, oneWay } = s;
  let d = 0;
  let w = 0;
  for (let i = 0; i < kind.length; i++) {
    if (flows[i] !== flow) continue;
    const k = kind[i];
    if (k === K.depart) {
      const q = value[i];
      departures[d] = t[i];
      arrivals[d] = t[i] - q;
      queueDelays[d++] = q;
      s.queueDelaySum += q;
      s.bits += bytes[i] * 8;
    } else if (k === K.deliver) oneWay[w++] = value[i];
    else if (k === K.drop) s.drops++;
  }
  return s;
}
