import type { Packet } from '../net/packet.ts';
import { defineDiscipline, type PacketQueue } from './discipline.ts';
import { PacketRing } from './packetRing.ts';

/** FIFO with packet and byte limits; refuses a packet that would exceed either (drop-tail). */
export class DropTailQueue implements PacketQueue {
  private readonly ring = new PacketRing();
  bytes = 0;
  onDrop: (packet: Packet, now: number) => void = () => {};
  onMark: (packet: Packet, now: number) => void = () => {};

  constructor(
    protected readonly maxPackets: number,
    protected readonly maxBytes: number,
  ) {}

  get length(): number {
    return this.ring.length;
  }

  /** Whether the queue holding `packets` and `bytes` is within its limits. */
  protected fits(packets: number, bytes: number): boolean {
    return packets <= this.maxPackets && bytes <= this.maxBytes;
  }

  push(packet: Packet, arrival: number): boolean {
    if (!this.fits(this.ring.length + 1, this.bytes + packet.bytes)) return false;
    this.accept(packet, arrival);
    return true;
  }

  protected accept(packet: Packet, arrival: number): void {
    this.ring.push(packet, arrival);
    this.bytes += packet.bytes;
  }

  get headArrival(): number {
    return this.ring.headTime;
  }

  shift(_now?: number): Packet {
    const packet = this.ring.shift();
    this.bytes -= packet.bytes;
    return packet;
  }
}

/** Accepts every packet that fits alone, then drops from the head until the queue is within its limits. */
export class DropHeadQueue extends DropTailQueue {
  push(packet: Packet, arrival: number): boolean {
    if (!this.fits(1, packet.bytes)) return false;
    this.accept(packet, arrival);
    while (!this.fits(this.length, this.bytes)) this.onDrop(this.shift(), arrival);
    return true;
  }
}

export const dropTail = defineDiscipline({ kind: 'drop-tail', title: 'drop-tail', params: {}, create: (limits) => new DropTailQueue(limits.packets, limits.bytes) });

export const dropHead = defineDiscipline({ kind: 'drop-head', title: 'drop-head', params: {}, create: (limits) => new DropHeadQueue(limits.packets, limits.bytes) });
