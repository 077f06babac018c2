import type { Controller, SchemeMode } from '../controllers/types.ts';
import { AckingReceiver, ContestSender } from '../endpoints/contest.ts';
import { OffsetClient } from '../endpoints/offsetClient.ts';
import { datagramPacket, OffsetServerNode } from '../endpoints/offsetServer.ts';
import { ReliableReceiver, ReliableSender } from '../endpoints/reliable.ts';
import { ectFor } from '../endpoints/windowedSender.ts';
import type { EventLog } from '../log/eventLog.ts';
import { generateFile } from '../offset/file.ts';
import { OffsetPolicy } from '../offset/policy.ts';
import type { Rng } from '../sim/rng.ts';
import type { Scheduler } from '../sim/scheduler.ts';
import { HostJitter } from '../endpoints/hostJitter.ts';
import { AckAggregation } from '../endpoints/ackAggregation.ts';
import type { PacketSink } from '../net/packet.ts';
import { FlowRouter, type Network } from './network.ts';
import type { FlowOutcome } from '../metrics/outcome.ts';

export type { FlowOutcome } from '../metrics/outcome.ts';
import type { FlowSpec, ScenarioSpec } from './spec.ts';

export class ScenarioError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioError';
  }
}

/** What every workload is wired into. */
export interface RunContext {
  spec: ScenarioSpec;
  scheduler: Scheduler;
  log: EventLog;
  net: Network;
  rng: Rng;
  packetBytes: number;
  /** The sending hosts' timing noise, one per flow that shares the bottleneck (their packets are in the network too). */
  hosts: HostJitter[];
}

/** One kind of experiment: how its flows are wired, and when a flow counts as done. */
export interface Workload {
  /** Wires flow i; returns what copies the flow's results into its outcome. */
  attach(i: number, flow: FlowSpec, controller: Controller, mode: SchemeMode, outcome: FlowOutcome): () => void;
  /** Whether flows finish (the run may stop early) rather than send until the end. */
  readonly finite: boolean;
}

/** Routers for packets reaching the receivers' and the senders' ends of the path. */
function routers(ctx: RunContext, repliesAreData: boolean): { toReceivers: FlowRouter; toSenders: FlowRouter } {
  const flows = ctx.spec.flows.length;
  const { data, acks } = ctx.net;
  return { toReceivers: new FlowRouter(repliesAreData ? acks.exit : data.exit, flows), toSenders: new FlowRouter(repliesAreData ? data.exit : acks.exit, flows) };
}

/**
 * Where flow i's sender hands its packets: the data direction's entry, through the host's timing noise when
 * the flow shares the bottleneck with others (not for a lone flow, whose runs stay exactly Mahimahi's).
 */
function senderOut(ctx: RunContext, i: number): PacketSink {
  const entry = ctx.net.data.entry;
  if (ctx.spec.flows.length < 2 || ctx.spec.hostJitter === false) return entry;
  const host = new HostJitter(ctx.scheduler, serviceMs(ctx.spec.link, ctx.packetBytes), ctx.rng.stream(`host-${i}`), entry);
  ctx.hosts.push(host);
  return host;
}

/** What hands ACKs to flow i's sender: the ACK router, through the spec's ACK jitter when the flow is the jittered one. */
function senderIn(ctx: RunContext, i: number, sender: PacketSink): PacketSink {
  const jitter = ctx.spec.ackJitter;
  if (jitter?.flow !== i) return sender;
  return new AckAggregation(ctx.scheduler, jitter.ms, ctx.rng.stream(`ack-jitter-${i}`), sender);
}

/** How long the bottleneck takes to send one packet, ms: on a trace's link, at most its 1 ms opportunity grain. */
function serviceMs(link: RunContext['spec']['link'], packetBytes: number): number {
  return link.kind === 'rate' ? (packetBytes * 8) / (link.mbps * 1000) : 1;
}

function needsWindow(mode: SchemeMode, flow: FlowSpec, what: string): void {
  if (mode !== 'window') throw new ScenarioError(`${flow.scheme} drives burst requests to an offset server; ${what} needs a window scheme`);
}

/** The contest: senders that never stop, receivers that ACK every packet. */
function contestWorkload(ctx: RunContext): Workload {
  const { toReceivers, toSenders } = routers(ctx, false);
  const { scheduler, log, net } = ctx;
  return {
    finite: false,
    attach(i, flow, controller, mode, outcome) {
      needsWindow(mode, flow, 'the contest');
      const sender = new ContestSender({ scheduler, log, flow: i, out: senderOut(ctx, i) }, controller, ctx.packetBytes);
      sender.ect = ectFor(controller, ctx.spec.link.ecn);
      toSenders.wire(i, senderIn(ctx, i, sender));
      toReceivers.wire(i, new AckingReceiver({ scheduler, log, flow: i, out: net.acks.entry }));
      sender.start(flow.startMs);
      return () => (outcome.finishedAt = sender.finishedAt);
    },
  };
}

/** Reliable transfer of a generated file; the outcome says whether the bytes arrived exactly. */
function reliableWorkload(ctx: RunContext): Workload {
  const { toReceivers, toSenders } = routers(ctx, false);
  const { scheduler, log, net, spec } = ctx;
  return {
    finite: true,
    attach(i, flow, controller, mode, outcome) {
      needsWindow(mode, flow, 'reliable transfer');
      if (flow.bytes === null) throw new ScenarioError('a reliable transfer needs a file size');
      const file = generateFile(flow.bytes, spec.seed + i);
      const sender = new ReliableSender({ scheduler, log, flow: i, out: senderOut(ctx, i) }, controller, file, ctx.packetBytes - 1448);
      sender.ect = ectFor(controller, spec.link.ecn);
      const receiver = new ReliableReceiver({ scheduler, log, flow: i, out: net.acks.entry }, file);
      toSenders.wire(i, senderIn(ctx, i, sender));
      toReceivers.wire(i, receiver);
      sender.start(flow.startMs);
      return () => {
        outcome.finishedAt = sender.finishedAt;
        outcome.exact = receiver.exact;
        outcome.bytesOnWire = sender.bytesOnWire;
        outcome.retransmissions = sender.retransmissions;
      };
    },
  };
}

/** Clients fetching one file from one offset server; the replies are the data direction. */
function offsetWorkload(ctx: RunContext): Workload {
  const { toReceivers, toSenders } = routers(ctx, true);
  const { scheduler, log, net, spec } = ctx;
  if (!spec.offset) throw new ScenarioError('an offset run needs the server settings');
  const file = generateFile(spec.flows[0]?.bytes ?? 1_000_000, spec.offset.fileSeed);
  const server = new OffsetServerNode(new OffsetPolicy(spec.offset.policy, file, ctx.rng.stream('offset-server')), log);
  server.out = net.data.entry;
  return {
    finite: true,
    attach(i, _flow, controller, mode, outcome) {
      toReceivers.wire(i, server);
      const send = (d: Uint8Array, now: number) => net.acks.entry.receive(datagramPacket(i, d, now), now);
      const client = new OffsetClient(scheduler, log, i, controller, mode, send, undefined, () => {
        if (spec.flows.length === 1) scheduler.stop();
      });
      toSenders.wire(i, { receive: (p, now) => client.receive(p.payload!, now) });
      scheduler.at(spec.flows[i].startMs, (now) => client.start(now));
      return () => {
        outcome.offset = client.stats;
        outcome.finishedAt = client.completedAt;
        outcome.exact = client.stats.result;
      };
    },
  };
}

export const WORKLOADS: Record<ScenarioSpec['workload'], (ctx: RunContext) => Workload> = {
  contest: contestWorkload,
  reliable: reliableWorkload,
  offset: offsetWorkload,
};
