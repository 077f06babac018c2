import { DelayLine, NO_IMPAIRMENTS } from '../link/impairments.ts';
import { ackTap } from '../link/bottleneck.ts';
import { createQueue } from '../link/queue.ts';
import { RateLink } from '../link/rateLink.ts';
import { EventLog } from '../log/eventLog.ts';
import type { Packet } from '../net/packet.ts';
import { Rng } from '../sim/rng.ts';
import { Scheduler } from '../sim/scheduler.ts';

export interface MeasurementSpec {
  /** The hidden truth. */
  mbps: number;
  delayMs: number;
  /** Uniform jitter ±ms on each direction, the measurement noise. */
  jitterMs: number;
  sizes: number[];
  repeats: number;
  seed: number;
}

export interface Fit {
  /** ms per byte */
  slope: number;
  /** ms */
  intercept: number;
  /** Estimated bandwidth, Mbit/s: each byte crosses the link twice, 8 bits each. */
  mbps: number;
  /** Estimated size-independent one-way delay, ms. */
  delayMs: number;
}

export interface MeasurementResult {
  samples: { size: number; rttMs: number }[];
  fit: Fit;
}

export const MEASUREMENT_SIZES = [10, 100, 1000, 4000, 16000, 32000, 65535];

export const DEFAULT_MEASUREMENT: MeasurementSpec = { mbps: 8, delayMs: 12, jitterMs: 0.5, sizes: MEASUREMENT_SIZES, repeats: 5, seed: 1 };

/**
 * Least-squares line through each size's fastest round trip (queueing and scheduling only ever add
 * delay, so the minimum is the cleanest view of the link), read as bandwidth and delay.
 */
export function fitLatency(all: { size: number; rttMs: number }[]): Fit {
  const fastest = new Map<number, number>();
  for (const { size, rttMs } of all) fastest.set(size, Math.min(rttMs, fastest.get(size) ?? Infinity));
  const samples = [...fastest].map(([size, rttMs]) => ({ size, rttMs }));
  const n = samples.length;
  let sx = 0,
    sy = 0,
    sxx = 0,
    sxy = 0;
  for (const { size, rttMs } of samples) {
    sx += size;
    sy += rttMs;
    sxx += size * size;
    sxy += size * rttMs;
  }
  const slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  const intercept = (sy - slope * sx) / n;
  return { slope, intercept, mbps: 16 / slope / 1000, delayMs: intercept / 2 };
}

/**
 * Ping-pong over a simulated link: each message (store-and-forward, its whole size serialized at the
 * link's rate) goes out and comes back before the next is sent.
 */
export function runMeasurement(spec: MeasurementSpec): MeasurementResult {
  const scheduler = new Scheduler();
  const log = new EventLog(64);
  const rng = new Rng(spec.seed, 'measurement');
  const jitter = { ...NO_IMPAIRMENTS, jitter: spec.jitterMs };
  const leg = (name: string) => {
    const link = new RateLink(scheduler, spec.mbps, createQueue({ kind: 'infinite' }, rng), ackTap(log));
    const delay = new DelayLine(scheduler, spec.delayMs, jitter, rng.stream(name));
    link.next = delay;
    return { entry: link, exit: delay };
  };
  const out = leg('out');
  const back = leg('back');
  const queue = spec.sizes.flatMap((size) => Array.from({ length: spec.repeats }, () => size));
  const samples: { size: number; rttMs: number }[] = [];
  const ping = (now: number) => {
    const size = queue[samples.length];
    const p: Packet = { flow: 0, seq: samples.length, bytes: size, isAck: false, sentAt: now, receivedAt: 0, ack: 0, retransmit: false, ecn: 0 };
    out.entry.receive(p, now);
  };
  out.exit.next = { receive: (p, now) => back.entry.receive(p, now) };
  back.exit.next = {
    receive: (p, now) => {
      samples.push({ size: p.bytes, rttMs: now - p.sentAt });
      if (samples.length < queue.length) ping(now);
    },
  };
  scheduler.at(0, ping);
  scheduler.run();
  return { samples, fit: fitLatency(samples) };
}
