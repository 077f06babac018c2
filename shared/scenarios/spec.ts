import type { ParamValues } from '../controllers/types.ts';
import type { LinkSpec } from '../link/spec.ts';
import type { OffsetPolicyConfig } from '../offset/policy.ts';

/**
 * An experiment, as plain data: what the URL, the CLI and the worker pass around. Running the same
 * spec with the same traces gives the same log, byte for byte.
 */
export type Workload = 'contest' | 'reliable' | 'offset';

export type { LinkSpec } from '../link/spec.ts';

export interface FlowSpec {
  scheme: string;
  params: ParamValues;
  startMs: number;
  /** Bytes to transfer (reliable and offset workloads); null sends until the run ends. */
  bytes: number | null;
}

export interface OffsetSpec {
  policy: OffsetPolicyConfig;
  fileSeed: number;
}

/** A live fetch from a real offset server, as the trace CSV records it. */
export interface LiveRun {
  /** `policy`: the policy the live server enforces, when it says (the relay's /api/relay). */
  live: { server: string; scheme: string; params: ParamValues; via: 'udp' | 'bridge'; variable?: boolean; policy?: OffsetPolicyConfig };
}

export interface ScenarioSpec {
  workload: Workload;
  link: LinkSpec;
  flows: FlowSpec[];
  seed: number;
  /** The run stops here even if flows are unfinished. */
  durationMs: number;
  offset: OffsetSpec | null;
  /** Source of the user's own controller (scheme "user"), when a flow runs it: the run carries its code. */
  code?: string;
  /**
   * Where several flows share the bottleneck, each sending host adds up to one bottleneck service time of
   * random delay to each packet (shared/endpoints/hostJitter.ts), as real hosts' timing noise does; false
   * turns it off, to show the phase effects it breaks. A single flow never has it.
   */
  hostJitter?: boolean;
  /**
   * Non-congestive delay jitter on one flow's ACK path (shared/endpoints/ackAggregation.ts): the ACKs
   * reaching flow `flow`'s sender are held up to `ms` each, released in batches. None when absent.
   */
  ackJitter?: { flow: number; ms: number };
}

/** The traces a run's link plays (none on a constant-rate link). */
export function tracesOf(spec: ScenarioSpec): string[] {
  return spec.link.kind === 'trace' ? [spec.link.trace, spec.link.ackTrace].filter((n) => n !== '') : [];
}
