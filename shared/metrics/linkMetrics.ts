import type { EventLog } from '../log/eventLog.ts';
import { K } from '../log/kinds.ts';
import { percentile, mean } from './percentile.ts';
import { signalDelays } from './signalDelay.ts';

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
  const arrivals: number[] = [];
  const departures: number[] = [];
  const queueDelays: number[] = [];
  const oneWay: number[] = [];
  let bits = 0;
  let drops = 0;
  for (let i = 0; i < log.length; i++) {
    if (flow >= 0 && c.flow[i] !== flow) continue;
    const k = c.kind[i];
    if (k === K.depart) {
      const d = c.value[i];
      departures.push(c.t[i]);
      arrivals.push(c.t[i] - d);
      queueDelays.push(d);
      bits += c.bytes[i] * 8;
    } else if (k === K.deliver) {
      oneWay.push(c.value[i]);
    } else if (k === K.drop) {
      drops++;
    }
  }
  const n = departures.length;
  const span = n > 1 ? departures[n - 1] - departures[0] : 0;
  const throughputMbps = span > 0 ? bits / span / 1000 : 0;
  const delay95 = percentile(signalDelays(arrivals, departures));
  return {
    throughputMbps,
    packetsDelivered: n,
    queueDelayMean: mean(queueDelays),
    queueDelay95: percentile(queueDelays),
    delay95,
    oneWay95: percentile(oneWay),
    power: throughputMbps / (delay95 / 1000),
    score: Math.log(throughputMbps / delay95),
    drops,
  };
}
