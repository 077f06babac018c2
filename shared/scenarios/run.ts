import { findScheme } from '../controllers/registry.ts';
import { checkParams, type Controller } from '../controllers/types.ts';
import { OffsetClient, type OffsetFetchResult } from '../endpoints/offsetClient.ts';
import { datagramPacket, OffsetServerNode } from '../endpoints/offsetServer.ts';
import { AckingReceiver, ContestSender } from '../endpoints/contest.ts';
import { ReliableReceiver, ReliableSender } from '../endpoints/reliable.ts';
import { ackTap, dataTap, type Bottleneck, type LinkTap } from '../link/bottleneck.ts';
import { DelayLine, LossStage, losesOrDuplicates, type ImpairmentSpec } from '../link/impairments.ts';
import { createQueue } from '../link/queue.ts';
import { RateLink } from '../link/rateLink.ts';
import { TraceLink } from '../link/traceLink.ts';
import { EventLog } from '../log/eventLog.ts';
import { DATA_BYTES, type Packet, type PacketSink } from '../net/packet.ts';
import { generateFile } from '../offset/file.ts';
import { OffsetPolicy } from '../offset/policy.ts';
import { Rng } from '../sim/rng.ts';
import { Scheduler } from '../sim/scheduler.ts';
import { OPPORTUNITY_BYTES, type Trace } from '../trace/mahimahi.ts';
import type { LinkSpec, ScenarioSpec } from './spec.ts';

/** Looks a trace up by name; the caller loads files (Node) or fetches them (browser). */
export type TraceSource = (name: string) => Trace;

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

export class ScenarioError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioError';
  }
}

/** One direction of the path: loss and duplication, the bottleneck, then propagation delay and jitter. */
export interface Direction {
  entry: PacketSink;
  bottleneck: Bottleneck;
  exit: DelayLine;
}

export function direction(
  scheduler: Scheduler,
  link: LinkSpec,
  impair: ImpairmentSpec,
  trace: Trace | null,
  mbps: number,
  tap: LinkTap,
  rng: Rng,
  ack: boolean,
): Direction {
  const queue = createQueue(ack ? { kind: 'infinite' } : link.queue);
  const bottleneck: Bottleneck = trace ? new TraceLink(scheduler, trace, queue, tap, link.once) : new RateLink(scheduler, mbps, queue, tap);
  const exit = new DelayLine(scheduler, link.delayMs, impair, rng);
  bottleneck.next = exit;
  if (!losesOrDuplicates(impair)) return { entry: bottleneck, bottleneck, exit };
  const loss = new LossStage(impair, rng, tap.log, ack);
  loss.next = bottleneck;
  return { entry: loss, bottleneck, exit };
}

/** Hands each packet to the endpoint of its flow. */
class FlowRouter implements PacketSink {
  readonly sinks: PacketSink[] = [];
  receive(packet: Packet, now: number): void {
    this.sinks[packet.flow]?.receive(packet, now);
  }
}

export function createController(scheme: string, params: Record<string, string | number>): Controller {
  const s = findScheme(scheme);
  if (!s) throw new ScenarioError(`unknown scheme "${scheme}"`);
  const checked = checkParams(s, params);
  if ('error' in checked) throw new ScenarioError(checked.error);
  return s.create(checked.values);
}

/** Builds the network a spec describes and runs it to the end. */
export function runScenario(spec: ScenarioSpec, traces: TraceSource): RunResult {
  if (spec.flows.length < 1 || spec.flows.length > 255) throw new ScenarioError('a run needs between 1 and 255 flows');
  const scheduler = new Scheduler();
  const rng = new Rng(spec.seed);
  const link = spec.link;
  const isTrace = link.kind === 'trace';
  const fwdTrace = isTrace ? traces(link.trace) : null;
  const revTrace = isTrace ? traces(link.ackTrace) : null;
  const log = new EventLog(expectedEvents(spec, fwdTrace));
  // Offset replies are the data: they travel the reverse of the request direction.
  const offset = spec.workload === 'offset';
  const data = direction(scheduler, link, link.forward, fwdTrace, link.mbps, dataTap(log), rng.stream('forward'), false);
  const acks = direction(scheduler, link, link.reverse, revTrace, link.ackMbps, ackTap(log), rng.stream('reverse'), true);
  const toReceivers = new FlowRouter();
  const toSenders = new FlowRouter();
  data.exit.next = offset ? toSenders : toReceivers;
  acks.exit.next = offset ? toReceivers : toSenders;
  const packetBytes = isTrace ? OPPORTUNITY_BYTES : DATA_BYTES;

  const outcomes: FlowOutcome[] = [];
  const finishers: (() => void)[] = [];
  let policy: OffsetPolicy | null = null;
  spec.flows.forEach((flow, i) => {
    const controller = createController(flow.scheme, flow.params);
    const mode = findScheme(flow.scheme)!.mode;
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
    if (spec.workload === 'contest') {
      if (mode !== 'window') throw new ScenarioError(`${flow.scheme} drives burst requests to an offset server; the contest needs a window scheme`);
      const sender = new ContestSender({ scheduler, log, flow: i, out: data.entry }, controller, packetBytes);
      toSenders.sinks[i] = sender;
      toReceivers.sinks[i] = new AckingReceiver({ scheduler, log, flow: i, out: acks.entry });
      sender.start(flow.startMs);
      finishers.push(() => (outcome.finishedAt = sender.finishedAt));
    } else if (spec.workload === 'reliable') {
      if (mode !== 'window') throw new ScenarioError(`${flow.scheme} is a burst scheme; reliable transfer needs a window scheme`);
      if (flow.bytes === null) throw new ScenarioError('a reliable transfer needs a file size');
      const file = generateFile(flow.bytes, spec.seed + i);
      const sender = new ReliableSender({ scheduler, log, flow: i, out: data.entry }, controller, file, packetBytes - 1448);
      const receiver = new ReliableReceiver({ scheduler, log, flow: i, out: acks.entry }, file.length);
      toSenders.sinks[i] = sender;
      toReceivers.sinks[i] = receiver;
      sender.start(flow.startMs);
      finishers.push(() => {
        outcome.finishedAt = sender.finishedAt;
        outcome.exact = receiver.complete && equalBytes(receiver.data, file);
        outcome.bytesOnWire = sender.bytesOnWire;
        outcome.retransmissions = sender.retransmissions;
      });
    } else {
      if (!spec.offset) throw new ScenarioError('an offset run needs the server settings');
      if (!policy) {
        const file = generateFile(flow.bytes ?? 1_000_000, spec.offset.fileSeed);
        policy = new OffsetPolicy(spec.offset.policy, file, rng.stream('offset-server'));
        const server = new OffsetServerNode(policy, log);
        server.out = data.entry;
        for (let k = 0; k < spec.flows.length; k++) toReceivers.sinks[k] = server;
      }
      const client = new OffsetClient(scheduler, log, i, controller, mode, (d, now) => acks.entry.receive(datagramPacket(i, d, now), now), undefined, () => {
        if (spec.flows.length === 1) scheduler.stop();
      });
      toSenders.sinks[i] = { receive: (p, now) => client.receive(p.payload!, now) };
      scheduler.at(flow.startMs, (now) => client.start(now));
      finishers.push(() => {
        outcome.offset = client.stats;
        outcome.finishedAt = client.completedAt;
        outcome.exact = client.stats.result;
      });
    }
  });

  runUntilDone(scheduler, spec, outcomes, finishers);
  if (log.allocatedBytes > 1.35 * log.byteLength) log.trim();
  const inNetwork = data.bottleneck.queuedPackets + (data.bottleneck.packetInTransit ? 1 : 0) + data.exit.inFlight;
  return { spec, log, flows: outcomes, endMs: scheduler.now, trace: fwdTrace, inNetwork };
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
 * Runs to the duration, or until every finite flow has finished (checked once a second of virtual time,
 * so idle timers after the last transfer do not stretch the run).
 */
function runUntilDone(scheduler: Scheduler, spec: ScenarioSpec, outcomes: FlowOutcome[], finishers: (() => void)[]): void {
  const finite = spec.workload !== 'contest';
  if (!finite) {
    scheduler.run(spec.durationMs);
  } else {
    const step = 1000;
    for (let t = step; ; t += step) {
      const until = Math.min(t, spec.durationMs);
      scheduler.run(until);
      finishers.forEach((f) => f());
      const done = outcomes.every((o) => o.finishedAt >= 0 && (spec.workload !== 'offset' || o.offset?.result !== null));
      if (done || until >= spec.durationMs || scheduler.pending === 0) break;
    }
  }
  finishers.forEach((f) => f());
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
