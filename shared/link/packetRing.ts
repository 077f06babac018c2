import type { Packet } from '../net/packet.ts';

/**
 * Packets first in, first out, each with a time (its arrival in a queue, or when it leaves a delay line):
 * a ring of packets and a typed array of times, doubled when full, so a long run allocates nothing per
 * packet.
 */
export class PacketRing {
  private packets: (Packet | undefined)[] = new Array(64);
  private times = new Float64Array(64);
  private head = 0;
  length = 0;

  push(packet: Packet, time: number): void {
    if (this.length === this.packets.length) this.grow();
    const i = (this.head + this.length) & (this.packets.length - 1);
    this.packets[i] = packet;
    this.times[i] = time;
    this.length++;
  }

  /** The time of the packet at the head (undefined content when empty). */
  get headTime(): number {
    return this.times[this.head];
  }

  shift(): Packet {
    const packet = this.packets[this.head]!;
    this.packets[this.head] = undefined;
    this.head = (this.head + 1) & (this.packets.length - 1);
    this.length--;
    return packet;
  }

  private grow(): void {
    const n = this.packets.length;
    const packets: (Packet | undefined)[] = new Array(n * 2);
    const times = new Float64Array(n * 2);
    for (let k = 0; k < this.length; k++) {
      packets[k] = this.packets[(this.head + k) & (n - 1)];
      times[k] = this.times[(this.head + k) & (n - 1)];
    }
    this.packets = packets;
    this.times = times;
    this.head = 0;
  }
}
