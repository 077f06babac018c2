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
  /** Play the traces once instead of looping them. */
  once: boolean;
  /** Propagation delay each way, ms. */
  delayMs: number;
  queue: QueueSpec;
  forward: ImpairmentSpec;
  reverse: ImpairmentSpec;
}
