import type { Packet } from '../net/packet.ts';
import type { NetemWay } from './netem.ts';

interface Held {
  packet: Packet;
  way: NetemWay;
  /** From when its wait counts as queueing, ms (its arrival plus its delay draw), for its logged queueing delay. */
  queuedFrom: number;
  /** netem's time_to_send, whole ns. */
  time: number;
}

/**
 * netem's tfifo: packets in time_to_send order, a packet due at the same time as others after them (the
 * kernel appends to its linear queue when a packet is not earlier than the tail, and otherwise inserts it
 * in its rbtree to the right of equal keys). Jitter without a rate makes packets earlier than the tail;
 * they are placed by bisection.
 */
export class TimeFifo {
  private items: Held[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  get headTime(): number {
    return this.items[this.head].time;
  }

  /** The time_to_send of the last packet in order: the reference netem's rate counts from. */
  get lastTime(): number {
    return this.items[this.items.length - 1].time;
  }

  push(packet: Packet, way: NetemWay, queuedFrom: number, time: number): void {
    const held = { packet, way, queuedFrom, time };
    const items = this.items;
    if (this.length === 0 || time >= items[items.length - 1].time) {
      items.push(held);
      return;
    }
    let lo = this.head;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (items[mid].time <= time) lo = mid + 1;
      else hi = mid;
    }
    items.splice(lo, 0, held);
  }

  shift(): Held {
    const held = this.items[this.head++];
    // Compact once the taken half outgrows what is left, so the array does not grow without end.
    if (this.head > 64 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return held;
  }
}
