import type { EventLog } from '../log/eventLog.ts';
import { K } from '../log/kinds.ts';
import { mean, percentile, percentileInPlace } from './percentile.ts';
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

/** The contest's figures for one flow, or for all flows together when `flow` is omitted. */
export function linkMetrics(log: EventLog, flow = -1): LinkMetrics {
  const c = log.columns;
  const DEPART = K.depart;
  const DELIVER = K.deliver;
  const DROP = K.drop;
  let n = flow < 0 ? log.count(DEPART) : 0;
  let delivered = flow < 0 ? log.count(DELIVER) : 0;
  for (let i = 0; flow >= 0 && i < log.length; i++) {
    if (c.flow[i] !== flow) continue;
    if (c.kind[i] === DEPART) n++;
    else if (c.kind[i] === DELIVER) delivered++;
  }
  const arrivals = new Float64Array(n);
  const departures = new Float64Array(n);
  const queueDelays = new Float64Array(n);
  const oneWay = new Float64Array(delivered);
  let bits = 0;
  let drops = 0;
  let d = 0;
  let w = 0;
  for (let i = 0; i < log.length; i++) {
    if (flow >= 0 && c.flow[i] !== flow) continue;
    const k = c.kind[i];
    if (k === DEPART) {
      const q = c.value[i];
      departures[d] = c.t[i];
      arrivals[d] = c.t[i] - q;
      queueDelays[d++] = q;
      bits += c.bytes[i] * 8;
    } else if (k === DELIVER) {
      oneWay[w++] = c.value[i];
    } else if (k === DROP) {
      drops++;
    }
  }
  const span = n > 1 ? departures[n - 1] - departures[0] : 0;
  const throughputMbps = span > 0 ? bits / span / 1000 : 0;
  const delay95 = flow < 0 ? percentile(runSignalDelays(log, arrivals, departures)) : percentileInPlace(signalDelays(arrivals, departures));
  const queueDelayMean = mean(queueDelays);
  return {
    throughputMbps,
    packetsDelivered: n,
    queueDelayMean,
    queueDelay95: percentileInPlace(queueDelays),
    delay95,
    oneWay95: percentileInPlace(oneWay),
    power: throughputMbps / (delay95 / 1000),
    score: Math.log(throughputMbps / delay95),
    drops,
  };
}
