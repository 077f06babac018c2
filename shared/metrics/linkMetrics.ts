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
 * The contest's figures for one flow, or for all flows together when `flow` is omitted, from one pass
 * over the log (two for one flow of several: the first counts its rows).
 */
export function linkMetrics(log: EventLog, flow = -1): LinkMetrics {
  const s = collect(log, flow);
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

/** Collects a flow's samples (all flows' when `flow` is negative) in one pass over the log, sized first. */
function collect(log: EventLog, flow: number): Samples {
  const { t, kind, flow: flows, value, bytes } = log.columns;
  const [departs, delivers] = flow < 0 ? [log.count(K.depart), log.count(K.deliver)] : countFlow(log, flow);
  const arrivals = new Float64Array(departs);
  const departures = new Float64Array(departs);
  const queueDelays = new Float64Array(departs);
  const oneWay = new Float64Array(delivers);
  let bits = 0;
  let drops = 0;
  let sum = 0;
  let d = 0;
  let w = 0;
  for (let i = 0; i < kind.length; i++) {
    if (flow >= 0 && flows[i] !== flow) continue;
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
  return { arrivals, departures, queueDelays, queueDelaySum: sum, oneWay, bits, drops };
}

/** Departures and deliveries of one flow. */
function countFlow(log: EventLog, flow: number): [number, number] {
  const { kind, flow: flows } = log.columns;
  let departs = 0;
  let delivers = 0;
  for (let i = 0; i < kind.length; i++) {
    if (flows[i] !== flow) continue;
    if (kind[i] === K.depart) departs++;
    else if (kind[i] === K.deliver) delivers++;
  }
  return [departs, delivers];
}
