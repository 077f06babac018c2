import { ackTap, dataTap, type Bottleneck, type LinkTap } from '../link/bottleneck.ts';
import { DelayLine, LossStage, losesOrDuplicates, type ImpairmentSpec } from '../link/impairments.ts';
import { NETEM_LIMIT, NetemQdisc } from '../link/netem.ts';
import { createQueue } from '../link/queue.ts';
import { RateLink } from '../link/rateLink.ts';
import { TraceLink } from '../link/traceLink.ts';
import type { EventLog } from '../log/eventLog.ts';
import type { Packet, PacketSink } from '../net/packet.ts';
import type { Rng } from '../sim/rng.ts';
import type { Scheduler } from '../sim/scheduler.ts';
import type { Trace } from '../trace/mahimahi.ts';
import type { LinkSpec } from './spec.ts';

/** One direction of the path: where packets enter, and the last stage, which hands them to the far end. */
export interface Direction {
  entry: PacketSink;
  /** The last stage: whatever it hands packets to is the far end. */
  exit: { next: PacketSink | null };
  /** Packets inside the direction: queued, in transmission or on the wire. */
  inNetwork(): number;
}

interface DirectionParts {
  link: LinkSpec;
  impair: ImpairmentSpec;
  trace: Trace | null;
  mbps: number;
  tap: LinkTap;
  rng: Rng;
  /**
   * The ACK direction, as `mm-delay 20 mm-link …` orders it for a sender inside the shells: the data
   * cross the bottleneck and then the delay, ACKs the delay and then the bottleneck. ACKs queue without
   * a limit.
   */
  ack: boolean;
}

function direction(scheduler: Scheduler, d: DirectionParts): Direction {
  if (d.link.model === 'netem') return netemDirection(scheduler, d);
  return mahimahiDirection(scheduler, d);
}

export const NETEM_ON_TRACE = "the netem link model paces by a rate: a trace link is Mahimahi's";

/** A netem qdisc for each direction: loss, duplication, rate, delay and reordering in one stage. */
function netemDirection(scheduler: Scheduler, d: DirectionParts): Direction {
  if (d.trace) throw new Error(NETEM_ON_TRACE);
  const way = { next: null, tap: d.tap, ack: d.ack, held: 0 };
  const qdisc = new NetemQdisc(scheduler, netemSettings(d.link, d.impair, d.mbps), d.rng, [way]);
  return { entry: qdisc.entry(0), exit: way, inNetwork: () => way.held };
}

const netemSettings = (link: LinkSpec, impair: ImpairmentSpec, mbps: number) => ({ latencyMs: link.delayMs, mbps, limit: link.limit ?? NETEM_LIMIT, impair });

/** One netem qdisc that both directions cross, as on a loopback interface, with the data direction's settings. */
function loopbackNetem(scheduler: Scheduler, link: LinkSpec, log: EventLog, rng: Rng): Network {
  const ways = [
    { next: null, tap: dataTap(log), ack: false, held: 0 },
    { next: null, tap: ackTap(log), ack: true, held: 0 },
  ];
  const qdisc = new NetemQdisc(scheduler, netemSettings(link, link.forward, link.mbps), rng.stream('loopback'), ways);
  const [data, acks] = ways.map((way, i) => ({ entry: qdisc.entry(i), exit: way, inNetwork: () => way.held }));
  return { data, acks };
}

/** Loss and duplication, then (data) the bottleneck and the delay, or (ACKs) the delay and the bottleneck. */
function mahimahiDirection(scheduler: Scheduler, d: DirectionParts): Direction {
  const queue = createQueue(d.ack ? { kind: 'infinite' } : d.link.queue, d.rng.stream('queue'), !d.ack && d.link.ecn === true);
  const bottleneck: Bottleneck = d.trace ? new TraceLink(scheduler, d.trace, queue, d.tap, d.link.once) : new RateLink(scheduler, d.mbps, queue, d.tap);
  const delay = new DelayLine(scheduler, d.link.delayMs, d.impair, d.rng);
  let first: PacketSink;
  let exit: { next: PacketSink | null };
  if (d.ack) {
    delay.next = bottleneck;
    first = delay;
    exit = bottleneck;
  } else {
    bottleneck.next = delay;
    first = bottleneck;
    exit = delay;
  }
  if (losesOrDuplicates(d.impair)) {
    const loss = new LossStage(d.impair, d.rng, d.tap.log, d.ack);
    loss.next = first;
    first = loss;
  }
  return { entry: first, exit, inNetwork: () => bottleneck.queuedPackets + (bottleneck.packetInTransit ? 1 : 0) + delay.inFlight };
}

/** Hands each packet leaving a direction to the endpoint of its flow. */
export class FlowRouter implements PacketSink {
  private readonly sinks: PacketSink[] = [];

  constructor(
    private readonly exit: { next: PacketSink | null },
    private readonly flows: number,
  ) {
    exit.next = this;
  }

  /** Flow i's packets go to `sink`; a lone flow's straight from the direction, with no lookup a packet. */
  wire(i: number, sink: PacketSink): void {
    this.sinks[i] = sink;
    if (this.flows === 1) this.exit.next = sink;
  }

  receive(packet: Packet, now: number): void {
    this.sinks[packet.flow]?.receive(packet, now);
  }
}

/** Both directions of a path and the routers at their ends. */
export interface Network {
  /** The direction the data (or, for the offset server, the replies) travel. */
  data: Direction;
  acks: Direction;
}

/**
 * Builds both directions. The ACK direction crosses its own trace when the link names one, else a
 * constant-rate link of `ackMbps`.
 */
export function buildNetwork(scheduler: Scheduler, link: LinkSpec, log: EventLog, traces: { data: Trace | null; acks: Trace | null }, rng: Rng): Network {
  if (link.model === 'netem' && link.netemQdisc !== 'each-direction') {
    if (traces.data) throw new Error(NETEM_ON_TRACE);
    return loopbackNetem(scheduler, link, log, rng);
  }
  const data = direction(scheduler, { link, impair: link.forward, trace: traces.data, mbps: link.mbps, tap: dataTap(log), rng: rng.stream('forward'), ack: false });
  const acks = direction(scheduler, { link, impair: link.reverse, trace: traces.acks, mbps: link.ackMbps, tap: ackTap(log), rng: rng.stream('reverse'), ack: true });
  return { data, acks };
}
