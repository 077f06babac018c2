import type { Packet } from '../net/packet.ts';
import { num } from '../controllers/types.ts';
import { defineDiscipline, markInstead } from './discipline.ts';
import { DropTailQueue } from './fifo.ts';
import { OPPORTUNITY_BYTES as PACKET_SIZE } from '../trace/mahimahi.ts';

/**
 * CoDel (RFC 8289) as Mahimahi's codel_packet_queue runs it: drop decisions at dequeue, on the sojourn
 * time of the packet taken out; once it stayed above `target` for an `interval`, drop at intervals of
 * interval/√count. Mahimahi hands out the first packet it dequeued and drops the ones dequeued after it,
 * and never drops what would leave the queue empty; so does this.
 *
 * With ECN (Linux's `codel ecn`, include/net/codel_impl.h) it takes Linux's order: the packet judged is
 * marked CE and handed out when ECN-capable, the count and the next drop time moving as for a drop, and
 * dropped when not, the next packet then judged in its place.
 */
export class CodelQueue extends DropTailQueue {
  /**
   * Bytes the whole queue holds with `taken` out: at most a packet's worth exempts it from a drop. FQ-CoDel
   * gives every flow's (as Linux passes its qdisc's backlog to each flow's CoDel).
   */
  backlogWithout: (taken: Packet) => number = () => this.bytes;
  private firstAboveTime = 0;
  private dropNext = 0;
  private count = 0;
  private lastCount = 0;
  private dropping = false;

  constructor(
    maxPackets: number,
    maxBytes: number,
    private readonly target: number,
    private readonly interval: number,
    private readonly ecn = false,
  ) {
    super(maxPackets, maxBytes);
  }

  /** Takes one packet and says whether CoDel may drop (the next) one. */
  private take(now: number): { packet: Packet; okToDrop: boolean } {
    const arrival = this.headArrival;
    const packet = super.shift(now);
    if (this.length === 0) {
      this.firstAboveTime = 0;
      return { packet, okToDrop: false };
    }
    let okToDrop = false;
    if (now - arrival < this.target || this.backlogWithout(packet) <= PACKET_SIZE) this.firstAboveTime = 0;
    else if (this.firstAboveTime === 0) this.firstAboveTime = now + this.interval;
    else if (now >= this.firstAboveTime) okToDrop = true;
    return { packet, okToDrop };
  }

  /** Takes the head packet out without a CoDel decision (FQ-CoDel's drops when it overflows). */
  dropHead(): Packet {
    return super.shift();
  }

  private controlLaw(t: number, count: number): number {
    return t + Math.floor(this.interval / Math.sqrt(count));
  }

  shift(now: number): Packet {
    return this.ecn ? this.shiftMarking(now) : this.shiftDropping(now);
  }

  /** Mahimahi's order: the packet taken first is handed out, the ones taken after it are dropped. */
  private shiftDropping(now: number): Packet {
    const first = this.take(now);
    if (this.dropping) {
      if (!first.okToDrop) this.dropping = false;
      while (now >= this.dropNext && this.dropping) {
        const next = this.take(now);
        this.onDrop(next.packet, now);
        this.count++;
        if (!next.okToDrop) this.dropping = false;
        else this.dropNext = this.controlLaw(this.dropNext, this.count);
      }
    } else if (first.okToDrop) {
      this.onDrop(this.take(now).packet, now);
      this.enterDropping(now);
    }
    return first.packet;
  }

  /**
   * With ECN, Linux's order (codel_dequeue): CoDel judges the packet it took; an ECN-capable one is marked
   * CE and handed out, a Not-ECT one is dropped and the next one taken is judged in its place. So marks
   * fall on ECN-capable packets and drops on the others, never the other way round.
   */
  private shiftMarking(now: number): Packet {
    let head = this.take(now);
    if (this.dropping) {
      if (!head.okToDrop) this.dropping = false;
      while (this.dropping && now >= this.dropNext) {
        this.count++;
        if (markInstead(this, head.packet, now, true)) {
          this.dropNext = this.controlLaw(this.dropNext, this.count);
          break;
        }
        this.onDrop(head.packet, now);
        head = this.take(now);
        if (!head.okToDrop) this.dropping = false;
        else this.dropNext = this.controlLaw(this.dropNext, this.count);
      }
    } else if (head.okToDrop) {
      if (!markInstead(this, head.packet, now, true)) {
        this.onDrop(head.packet, now);
        head = this.take(now);
      }
      this.enterDropping(now);
    }
    return head.packet;
  }

  /** Into the dropping state: near the last cycle's end, at the drop rate that controlled the queue then. */
  private enterDropping(now: number): void {
    this.dropping = true;
    const delta = this.count - this.lastCount;
    this.count = delta > 1 && now - this.dropNext < 16 * this.interval ? delta : 1;
    this.dropNext = this.controlLaw(now, this.count);
    this.lastCount = this.count;
  }
}

export const codel = defineDiscipline({
  kind: 'codel',
  title: 'CoDel',
  params: {
    target: num('codelTarget', 'ms', 1, 1000, 1, 5, 'CoDel: target sojourn time'),
    interval: num('codelInterval', 'ms', 1, 10_000, 1, 100, 'CoDel: interval'),
  },
  create: (limits, d, _rng, ecn) => new CodelQueue(limits.packets, limits.bytes, d.target, d.interval, ecn),
});
