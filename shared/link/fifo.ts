import type { Packet } from '../net/packet.ts';
import { defineDiscipline, type PacketQueue } from './discipline.ts';

/** FIFO ring buffer with packet and byte limits; refuses a packet that would exceed either (drop-tail). */
export class DropTailQueue implements PacketQueue {
  private items: (Packet | undefined)[] = new Array(64);
  private arrivals = new Float64Array(64);
  private head = 0;
  length = 0;
  bytes = 0;
  onDrop: (packet: Packet, now: number) => void = () => {};
  onMark: (packet: Packet, now: number) => void = () => {};

  constructor(
    protected readonly maxPackets: number,
    protected readonly maxBytes: number,
  ) {}

  /** Whether the queue holding `packets` and `bytes` is within its limits. */
  protected fits(packets: number, bytes: number): boolean {
    return packets <= this.maxPackets && bytes <= this.maxBytes;
  }

  push(packet: Packet, arrival: number): boolean {
    if (!this.fits(this.length + 1, this.bytes + packet.bytes)) return false;
    this.accept(packet, arrival);
    return true;
  }

  protected accept(packet: Packet, arrival: number): void {
    if (this.length === this.items.length) this.grow();
    const i = (this.head + this.length) & (this.items.length - 1);
    this.items[i] = packet;
    this.arrivals[i] = arrival;
    this.length++;
    this.bytes += packet.bytes;
  }

  get headArrival(): number {
    return this.arrivals[this.head];
  }

  shift(_now?: number): Packet {
    const packet = this.items[this.head]!;
    this.items[this.head] = undefined;
    this.head = (this.head + 1) & (this.items.length - 1);
    this.length--;
    this.bytes -= packet.bytes;
    return packet;
  }

  private grow(): void {
    const n = this.items.length;
    const items: (Packet | undefined)[] = new Array(n * 2);
    const arrivals = new Float64Array(n * 2);
    for (let k = 0; k < this.length; k++) {
      items[k] = this.items[(this.head + k) & (n - 1)];
      arrivals[k] = this.arrivals[(this.head + k) & (n - 1)];
    }
    this.items = items;
    this.arrivals = arrivals;
    this.head = 0;
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
