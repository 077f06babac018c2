import type { OffsetFetchResult } from '../endpoints/offsetClient.ts';
import type { LinkSpec } from '../link/spec.ts';
import type { EventLog } from '../log/eventLog.ts';
import type { OffsetPolicyConfig } from '../offset/policy.ts';
import type { Trace } from '../trace/mahimahi.ts';

/** How one flow of a run ended, as its endpoints report it. */
export interface FlowOutcome {
  flow: number;
  scheme: string;
  startMs: number;
  /** When the flow finished its transfer, or -1. */
  finishedAt: number;
  /** Reliable: the receiver's bytes equal the sender's. */
  exact: boolean | null;
  bytesOnWire: number;
  retransmissions: number;
  fileBytes: number;
  offset: OffsetFetchResult | null;
}

/**
 * What the figures of a run depend on: its log, each flow's outcome, and the few settings that enter a
 * metric (a simulated run's result has this shape; a log read back from a CSV or a live fetch builds it).
 */
export interface RunFacts {
  spec: {
    workload: 'contest' | 'reliable' | 'offset';
    seed: number;
    durationMs: number;
    link: Pick<LinkSpec, 'kind' | 'mbps' | 'delayMs' | 'once'> & { forward: { loss: number } };
    offset: { policy: OffsetPolicyConfig } | null;
    /** The flow whose ACK path is jittered, marked in the summary. */
    ackJitter?: { flow: number };
  };
  log: EventLog;
  flows: readonly FlowOutcome[];
  endMs: number;
  /** The data direction's trace, for the omniscient point. */
  trace: Trace | null;
}
