import { findScheme, SCHEMES, type SchemeCatalogue } from '../controllers/registry.ts';
import { checkParams, type Controller } from '../controllers/types.ts';
import type { HostJitter } from '../endpoints/hostJitter.ts';
import { EventLog, type RowStream } from '../log/eventLog.ts';
import { DATA_BYTES } from '../net/packet.ts';
import { Rng } from '../sim/rng.ts';
import { Scheduler } from '../sim/scheduler.ts';
import { OPPORTUNITY_BYTES, type Trace } from '../trace/mahimahi.ts';
import { buildNetwork, NETEM_ON_TRACE } from './network.ts';
import type { ScenarioSpec } from './spec.ts';
import { ScenarioError, WORKLOADS, type FlowOutcome } from './workloads.ts';

export { ScenarioError, type FlowOutcome } from './workloads.ts';

/** Looks a trace up by name; the caller loads files (Node) or fetches them (browser). */
export type TraceSource = (name: string) => Trace;

export interface RunResult {
  spec: ScenarioSpec;
  log: EventLog;
  flows: FlowOutcome[];
  /** Virtual time at which the run stopped. */
  endMs: number;
  /** Forward trace (for capacity and the omniscient point), when the link is trace-driven. */
  trace: Trace | null;
  /** Data-direction packets still queued, in transmission or propagating when the run stopped. */
  inNetwork: number;
}

/** A controller for a scheme of the catalogue, its parameters checked; `rng` is the flow's own stream. */
export function createController(scheme: string, params: Record<string, string | number>, rng = new Rng(1), schemes: SchemeCatalogue = SCHEMES): Controller {
  const s = findScheme(scheme, schemes);
  if (!s) throw new ScenarioError(`unknown scheme "${scheme}"`);
  const checked = checkParams(s, params);
  if ('error' in checked) throw new ScenarioError(checked.error);
  return s.create(checked.values, rng);
}

/** Builds the network a spec describes and runs it to the end; its flows' schemes are the catalogue's (the built-ins unless told otherwise). */
export function runScenario(spec: ScenarioSpec, traces: TraceSource, schemes: SchemeCatalogue = SCHEMES, rows?: RowStream): RunResult {
  const run = startScenario(spec, traces, schemes, rows);
  while (!run.advance());
  return run.result();
}

/**
 * A run in steps of virtual time, so a caller can stop between steps (the page drops a run a newer
 * one replaced). Stepping gives exactly the run `runScenario` gives.
 */
export interface ScenarioRun {
  /** Simulates the next step; true once the run has ended. */
  advance(): boolean;
  /** The finished run's result (call once `advance` returned true). */
  result(): RunResult;
}

/** Virtual time simulated per step, ms: a second of a contest run is well under a millisecond of work. */
const STEP_MS = 1000;

/** Builds the network a spec describes, ready to run in steps; with `rows`, its log keeps no rows but hands each to it. */
export function startScenario(spec: ScenarioSpec, traces: TraceSource, schemes: SchemeCatalogue = SCHEMES, rows?: RowStream): ScenarioRun {
  if (spec.flows.length < 1 || spec.flows.length > 255) throw new ScenarioError('a run needs between 1 and 255 flows');
  const scheduler = new Scheduler();
  const rng = new Rng(spec.seed);
  const link = spec.link;
  const isTrace = link.kind === 'trace';
  if (isTrace && link.model === 'netem') throw new ScenarioError(NETEM_ON_TRACE);
  const dataTrace = isTrace ? traces(link.trace) : null;
  // An empty ACK trace name means a constant-rate ACK path of ackMbps (a downlink with no uplink of its own).
  const ackTrace = isTrace && link.ackTrace !== '' ? traces(link.ackTrace) : null;
  const log = rows ? EventLog.streaming(rows) : EventLog.lend(expectedEvents(spec, dataTrace));
  const net = buildNetwork(scheduler, link, log, { data: dataTrace, acks: ackTrace }, rng);
  const hosts: HostJitter[] = [];
  const workload = WORKLOADS[spec.workload]({ spec, scheduler, log, net, rng, packetBytes: isTrace ? OPPORTUNITY_BYTES : DATA_BYTES, hosts });
  const outcomes: FlowOutcome[] = [];
  const finishers = spec.flows.map((flow, i) => {
    const controller = createController(flow.scheme, flow.params, rng.stream(`controller-${i}`), schemes);
    const outcome: FlowOutcome = {
      flow: i,
      scheme: flow.scheme,
      startMs: flow.startMs,
      finishedAt: -1,
      exact: null,
      bytesOnWire: 0,
      retransmissions: 0,
      fileBytes: flow.bytes ?? 0,
      offset: null,
    };
    outcomes.push(outcome);
    return workload.attach(i, flow, controller, findScheme(flow.scheme, schemes)!.mode, outcome);
  });
  const step = stepper(scheduler, spec, workload.finite, outcomes, finishers);
  let ended = false;
  return {
    advance() {
      ended ||= step();
      return ended;
    },
    result() {
      const inNetwork = net.data.inNetwork() + hosts.reduce((n, h) => n + h.held, 0);
      return { spec, log, flows: outcomes, endMs: scheduler.now, trace: dataTrace, inNetwork };
    },
  };
}

/**
 * A first guess at the log's size, so a long run need not grow it: a saturated trace link logs about
 * five rows per delivery opportunity (send, enqueue, depart, deliver, ACK).
 */
function expectedEvents(spec: ScenarioSpec, trace: Trace | null): number {
  if (!trace || spec.workload !== 'contest') return 1 << 16;
  const opportunitiesPerMs = trace.times.length / trace.times[trace.times.length - 1];
  return Math.ceil(Math.min(spec.durationMs, 3_600_000) * opportunitiesPerMs * 5.2) + 4096;
}

/**
 * One step of the run: up to the next second of virtual time. A finite run also ends once every flow has
 * finished (checked after each step, so idle timers after the last transfer do not stretch the run).
 * Returns whether the run has ended.
 */
function stepper(scheduler: Scheduler, spec: ScenarioSpec, finite: boolean, outcomes: FlowOutcome[], finishers: (() => void)[]): () => boolean {
  let t = 0;
  return () => {
    t += STEP_MS;
    const until = Math.min(t, spec.durationMs);
    scheduler.run(until);
    let ended = until >= spec.durationMs;
    if (finite) {
      finishers.forEach((f) => f());
      const done = outcomes.every((o) => o.finishedAt >= 0 && (o.offset === null || o.offset.result !== null));
      ended ||= done || scheduler.pending === 0;
    }
    if (ended) finishers.forEach((f) => f());
    return ended;
  };
}
