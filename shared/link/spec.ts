import type { ImpairmentSpec } from './impairments.ts';
import type { QueueSpec } from './queue.ts';

/** Both directions of a path, as plain data. */
export interface LinkSpec {
  /** 'trace': forward (data) and reverse (ACK) traces by name; 'rate': constant bit rates. */
  kind: 'trace' | 'rate';
  trace: string;
  ackTrace: string;
  mbps: number;
  ackMbps: number;
  /**
   * ECN on (RFC 3168): the queue's AQM marks CE on ECN-capable packets where it would drop them, and
   * senders whose controller asks send ECT(0) or ECT(1). Absent: off.
   */
  ecn?: boolean;
  /** Play the traces once instead of looping them. */
  once: boolean;
  /** Propagation delay each way, ms. */
  delayMs: number;
  queue: QueueSpec;
  forward: ImpairmentSpec;
  reverse: ImpairmentSpec;
  /**
   * How rate, queue and delay compose: 'mahimahi' (absent) queues at the bottleneck and then adds the
   * propagation delay, as mm-link inside mm-delay; 'netem' is Linux's netem qdisc (NetemQdisc), rate links only.
   */
  model?: LinkModel;
  /** The netem model's limit, packets (tc's default 1000 when absent). */
  limit?: number;
  /**
   * The netem model's qdiscs: 'loopback' (absent), one that both directions cross, as tc on `lo` sets up,
   * with the data direction's rate and impairments; 'each-direction', one per direction with its own.
   */
  netemQdisc?: NetemQdiscs;
}

export const NETEM_QDISCS = ['loopback', 'each-direction'] as const;
export type NetemQdiscs = (typeof NETEM_QDISCS)[number];

export const LINK_MODELS = ['mahimahi', 'netem'] as const;
export type LinkModel = (typeof LINK_MODELS)[number];
