import type { Packet, PacketSink } from '../net/packet.ts';
import type { EventLog } from '../log/eventLog.ts';
import { DROP, K } from '../log/kinds.ts';
import type { PacketQueue } from './queue.ts';
import type { Scheduler } from '../sim/scheduler.ts';

/** What a bottleneck records: data-direction links log arrivals and departures; ACK links only drops. */
export interface LinkTap {
  log: EventLog;
  /** Whether to record enqueue and depart rows (the data direction). */
  detailed: boolean;
  /** Drop reason code used when the queue refuses a packet. */
  dropReason: number;
}

export function dataTap(log: EventLog): LinkTap {
  return { log, detailed: true, dropReason: DROP.queue };
}

export function ackTap(log: EventLog): LinkTap {
  return { log, detailed: false, dropReason: DROP['ack-queue'] };
}

/** A queue draining into a service process; subclasses decide when the head packet leaves. */
export abstract class Bottleneck implements PacketSink {
  next: PacketSink | null = null;
  // the tap's, read once: every packet's arrival and departure asks
  private readonly log: EventLog;
  private readonly detailed: boolean;

  constructor(
    protected readonly scheduler: Scheduler,
    protected readonly queue: PacketQueue,
    protected readonly tap: LinkTap,
  ) {
    this.log = tap.log;
    this.detailed = tap.detailed;
    queue.onDrop = (packet, now) => this.dropped(packet, now, DROP.aqm);
    queue.onMark = (packet, now) => this.log.push(now, K.mark, packet.flow, packet.seq, packet.bytes, this.queue.length, 0);
  }

  private dropped(packet: Packet, now: number, reason: number): void {
    this.log.push(now, K.drop, packet.flow, packet.seq, packet.bytes, reason, 0);
  }

  abstract receive(packet: Packet, now: number): void;
  /** Whether a packet has left the queue but not yet the link. */
  abstract readonly packetInTransit: boolean;

  get queuedPackets(): number {
    return this.queue.length;
  }

  get queuedBytes(): number {
    return this.queue.bytes;
  }

  protected admit(packet: Packet, arrival: number, now: number): boolean {
    if (!this.queue.push(packet, arrival)) {
      this.dropped(packet, now, this.tap.dropReason);
      return false;
    }
    if (this.detailed) this.log.push(now, K.enqueue, packet.flow, packet.seq, packet.bytes, this.queue.length, 0);
    return true;
  }

  protected depart(packet: Packet, arrival: number, at: number): void {
    if (this.detailed) this.log.push(at, K.depart, packet.flow, packet.seq, packet.bytes, at - arrival, 0);
    this.next!.receive(packet, at);
  }
}
