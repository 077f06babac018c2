import { K } from '../log/kinds.ts';
import type { RunFacts } from './outcome.ts';
import { grade, type Grade } from './grade.ts';
import { type TransferFacts, transferFacts } from './transfer.ts';
import { linkMetrics, type LinkMetrics } from './linkMetrics.ts';
import { omniscientPoint, type OmniscientPoint } from './omniscient.ts';
import { MAX_CHUNK } from '../offset/protocol.ts';
import { boundMs } from '../offset/policy.ts';

export interface FlowSummary {
  flow: number;
  scheme: string;
  link: LinkMetrics;
  /** Present (true) on the flow whose ACK path the run jitters (ScenarioSpec.ackJitter). */
  jittered?: true;
  reliable: {
    exact: boolean;
    seconds: number;
    goodputMbps: number;
    /** Bytes on the wire ÷ file size. */
    overhead: number;
    retransmissions: number;
    grade: Grade | null;
    /** The timer and the retransmissions, as the matrix's captions explain a row. */
    transfer: TransferFacts;
  } | null;
  offset: {
    result: boolean | null;
    timeMs: number;
    penalty: number;
    requests: number;
    duplicates: number;
    squishes: number;
    md5: string;
    /** The time a perfectly paced client needs, ms: chunks at the token rate, along its schedule when it varies. */
    boundMs: number;
  } | null;
}

export interface Delays {
  /** The contest's signal delay (propagation excluded): the same figure as `all.delay95`. */
  signal95: number;
  /**
   * Sprout's self-inflicted delay: the end-to-end delay minus the omniscient sender's on the same trace
   * (null without a trace). End-to-end delay here is Sprout's delay at every instant (the signal delay
   * plus the propagation delay), so the propagation cancels and what is left is the delay the sender's
   * own queue added to what the link imposes anyway (outages included).
   */
  selfInflicted95: number | null;
  /** Each delivered packet's end-to-end one-way delay, propagation included: `all.oneWay95`. */
  perPacketOneWay95: number;
}

export interface Summary {
  workload: RunFacts['spec']['workload'];
  seed: number;
  endMs: number;
  events: number;
  all: LinkMetrics;
  flows: FlowSummary[];
  omniscient: OmniscientPoint | null;
  /** The three delays a run reports, each under its name (ms, 95th percentiles). */
  delays: Delays;
}

/** The headline figures of a run, computed from its event log and outcomes. */
export function summarize(run: RunFacts): Summary {
  const { spec, log } = run;
  const all = linkMetrics(log);
  const flows = run.flows.map((o): FlowSummary => {
    const link = run.flows.length === 1 ? all : linkMetrics(log, o.flow);
    let reliable: FlowSummary['reliable'] = null;
    let offset: FlowSummary['offset'] = null;
    if (spec.workload === 'reliable') {
      const seconds = o.finishedAt >= 0 ? (o.finishedAt - o.startMs) / 1000 : NaN;
      const l = spec.link;
      reliable = {
        exact: o.exact === true,
        seconds,
        goodputMbps: (8 * o.fileBytes) / seconds / 1e6,
        overhead: o.bytesOnWire / o.fileBytes,
        retransmissions: o.retransmissions,
        grade: l.kind === 'rate' && o.finishedAt >= 0 ? grade({ bytes: o.fileBytes, seconds, bandwidth: l.mbps * 1e6, latencyMs: l.delayMs, dropPercent: l.forward.loss * 100 }) : null,
        transfer: transferFacts(log, o.flow),
      };
    }
    if (spec.workload === 'offset' && o.offset) {
      const policy = spec.offset!.policy;
      const chunks = Math.ceil(o.offset.size / MAX_CHUNK);
      let squishes = 0;
      const c = log.columns;
      for (let i = 0; i < log.length; i++) if (c.kind[i] === K.squish && c.flow[i] === o.flow && c.value[i] === 1) squishes++;
      offset = {
        result: o.offset.result,
        timeMs: o.offset.serverTime,
        penalty: o.offset.penalty,
        requests: o.offset.requests,
        duplicates: o.offset.duplicates,
        squishes,
        md5: o.offset.md5,
        boundMs: boundMs(policy, chunks),
      };
    }
    const jittered = spec.ackJitter?.flow === o.flow ? { jittered: true as const } : {};
    return { flow: o.flow, scheme: o.scheme, link, ...jittered, reliable, offset };
  });
  const omniscient = run.trace ? omniscientPoint(run.trace, spec.durationMs, spec.link.once) : null;
  return {
    workload: spec.workload,
    seed: spec.seed,
    endMs: run.endMs,
    events: log.length,
    all,
    flows,
    omniscient,
    delays: { signal95: all.delay95, selfInflicted95: omniscient ? all.delay95 - omniscient.delay95 : null, perPacketOneWay95: all.oneWay95 },
  };
}
