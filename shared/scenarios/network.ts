import { ackTap, dataTap, type Bottleneck, type LinkTap } from '../link/bottleneck.ts';
import { DelayLine, LossStage, losesOrDuplicates, type ImpairmentSpec } from '../link/impairments.ts';
import { createQueue } from '../link/queue.ts';
import { RateLink } from '../link/rateLink.ts';
import { TraceLink } from '../link/traceLink.ts';
import type { EventLog } from '../log/eventLog.ts';
import type { Packet, PacketSink } from '../net/packet.ts';
import type { Rng } from '../sim/rng.ts';
import type { Scheduler } from '../sim/scheduler.ts';
import type { Trace } from '../trace/mahimahi.ts';
import type { LinkSpec } from './spec.ts';

/** One direction of the path: loss and duplication first, then the bottleneck and the propagation delay. */
export interface Direction {
  entry: PacketSink;
  bottleneck: Bottleneck;
  delay: DelayLine;
  /** The last stage: whatever it hands packets to is the far end. */
  exit: { next: PacketSink | null };
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
  const queue = createQueue(d.ack ? { kind: 'infinite' } : d.link.queue, d.rng.stream('queue'));
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
  return { entry: first, bottleneck, delay, exit };
}

/** Hands each packet to the endpoint of its flow. */
export class FlowRouter implements PacketSink {
  readonly sinks: PacketSink[] = [];
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
  const data = direction(scheduler, { link, impair: link.forward, trace: traces.data, mbps: link.mbps, tap: dataTap(log), rng: rng.stream('forward'), ack: false });
  const acks = direction(scheduler, { link, impair: link.reverse, trace: traces.acks, mbps: link.ackMbps, tap: ackTap(log), rng: rng.stream('reverse'), ack: true });
  return { data, acks };
}
