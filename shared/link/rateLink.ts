import type { Packet } from '../net/packet.ts';
import type { Scheduler } from '../sim/scheduler.ts';
import { K } from '../log/kinds.ts';
import { Bottleneck, type LinkTap } from './bottleneck.ts';
import type { PacketQueue } from './queue.ts';

/** A constant-bit-rate bottleneck: one packet in service at a time, each taking bytes·8/rate. */
export class RateLink extends Bottleneck {
  private readonly bytesPerMs: number;
  private inService: Packet | null = null;
  private inServiceArrival = 0;
  private readonly onDone = (now: number) => {
    const packet = this.inService!;
    this.inService = null;
    this.depart(packet, this.inServiceArrival, now);
    if (this.queue.length > 0) {
      const arrival = this.queue.headArrival;
      this.start(this.queue.shift(now), arrival, now);
    }
  };

  constructor(
    scheduler: Scheduler,
    readonly mbps: number,
    queue: PacketQueue,
    tap: LinkTap,
  ) {
    super(scheduler, queue, tap);
    this.bytesPerMs = (mbps * 1e6) / 8 / 1000;
  }

  receive(packet: Packet, now: number): void {
    if (this.inService === null) {
      if (this.tap.detailed) this.tap.log.push(now, K.enqueue, packet.flow, packet.seq, packet.bytes, 0, 0);
      this.start(packet, now, now);
    } else {
      this.admit(packet, now, now);
    }
  }

  private start(packet: Packet, arrival: number, now: number): void {
    this.inService = packet;
    this.inServiceArrival = arrival;
    this.scheduler.at(now + packet.bytes / this.bytesPerMs, this.onDone);
  }

  get packetInTransit(): boolean {
    return this.inService !== null;
  }
}
