import { TimedFifo } from '../link/impairments.ts';
import type { Packet, PacketSink } from '../net/packet.ts';
import type { Rng } from '../sim/rng.ts';
import type { Scheduler } from '../sim/scheduler.ts';

/**
 * A sending host's timing noise: each packet leaves a random time after the sender hands it over, uniform
 * in [0, `spreadMs`), in the order it was handed over. Without it, ACK-clocked flows sharing a drop-tail
 * queue lock into phase (Floyd and Jacobson, "On traffic phase effects in packet-switched gateways", 1992):
 * one flow's packets always arrive just after a slot frees and the other's find the queue full. Their cure,
 * adopted here, is a random processing time at the source of up to one bottleneck service time.
 */
export class HostJitter implements PacketSink {
  private lastExit = 0;
  private readonly line: TimedFifo;

  constructor(
    scheduler: Scheduler,
    private readonly spreadMs: number,
    private readonly rng: Rng,
    next: PacketSink,
  ) {
    this.line = new TimedFifo(scheduler);
    this.line.next = next;
  }

  /** Packets handed over and not yet sent on: a run counts them as in the network. */
  get held(): number {
    return this.line.count;
  }

  receive(packet: Packet, now: number): void {
    // never before a packet handed over earlier: a host's queue to its interface is first in, first out
    this.lastExit = Math.max(this.lastExit, now + this.rng.next() * this.spreadMs);
    this.line.push(packet, this.lastExit);
  }
}
