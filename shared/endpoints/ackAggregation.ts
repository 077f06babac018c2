import type { Packet, PacketSink } from '../net/packet.ts';
import type { Rng } from '../sim/rng.ts';
import type { Scheduler } from '../sim/scheduler.ts';

/**
 * Non-congestive delay jitter on one flow's ACK path, as ACK aggregation makes it (a Wi-Fi or cellular
 * link that hands ACKs over in batches): ACKs are held and released together at random epochs whose gaps
 * are uniform in [0, `maxMs`], so each ACK waits between 0 and `maxMs` and the order is kept. The flow's
 * smallest RTT stays the path's, while most of its samples are inflated by delay no queue caused.
 */
export class AckAggregation implements PacketSink {
  private held: Packet[] = [];
  /** The latest release epoch drawn (releases happen at each epoch with ACKs held). */
  private epoch: number;
  private pending = false;
  private readonly release = (now: number) => {
    this.pending = false;
    const batch = this.held;
    this.held = [];
    for (const packet of batch) this.next.receive(packet, now);
  };

  constructor(
    private readonly scheduler: Scheduler,
    private readonly maxMs: number,
    private readonly rng: Rng,
    private readonly next: PacketSink,
  ) {
    if (!(maxMs > 0)) throw new RangeError('ACK aggregation needs a positive jitter bound');
    this.epoch = rng.next() * maxMs;
  }

  receive(packet: Packet, now: number): void {
    this.held.push(packet);
    if (this.pending) return;
    while (this.epoch <= now) this.epoch += this.rng.next() * this.maxMs;
    this.pending = true;
    this.scheduler.at(this.epoch, this.release);
  }
}
