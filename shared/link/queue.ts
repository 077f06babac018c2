import type { Packet } from '../net/packet.ts';

/**
 * The queue in front of a bottleneck. Every discipline sits behind this interface; drop-tail by
 * packets, by bytes, or unlimited are limits of one FIFO.
 */
export interface PacketQueue {
  /** Adds the packet, or returns false when the discipline drops it. */
  push(packet: Packet, arrival: number): boolean;
  shift(): Packet;
  /** Arrival time of the packet at the head. */
  readonly headArrival: number;
  readonly length: number;
  readonly bytes: number;
}

export type QueueSpec = { kind: 'infinite' } | { kind: 'packets'; limit: number } | { kind: 'bytes'; limit: number };

export function createQueue(spec: QueueSpec): PacketQueue {
  switch (spec.kind) {
    case 'infinite':
      return new DropTailQueue(Infinity, Infinity);
    case 'packets':
      return new DropTailQueue(spec.limit, Infinity);
    case 'bytes':
      return new DropTailQueue(Infinity, spec.limit);
  }
}

/** FIFO ring buffer that refuses a packet that would exceed either limit. */
export class DropTailQueue implements PacketQueue {
  private items: (Packet | undefined)[] = new Array(64);
  private arrivals = new Float64Array(64);
  private head = 0;
  length = 0;
  bytes = 0;

  constructor(private readonly maxPackets: number, private readonly maxBytes: number) {}

  push(packet: Packet, arrival: number): boolean {
    if (this.length + 1 > this.maxPackets || this.bytes + packet.bytes > this.maxBytes) return false;
    if (this.length === this.items.length) this.grow();
    const i = (this.head + this.length) & (this.items.length - 1);
    this.items[i] = packet;
    this.arrivals[i] = arrival;
    this.length++;
    this.bytes += packet.bytes;
    return true;
  }

  get headArrival(): number {
    return this.arrivals[this.head];
  }

  shift(): Packet {
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
