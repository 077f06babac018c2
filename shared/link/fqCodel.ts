import { num } from '../controllers/types.ts';
import type { Packet } from '../net/packet.ts';
import { CodelQueue } from './codel.ts';
import { defineDiscipline, type PacketQueue } from './discipline.ts';

/** How many packets one overflow drops at most from the fattest flow (Linux's drop_batch_size). */
const DROP_BATCH = 64;

interface Flow {
  queue: CodelQueue;
  deficit: number;
  /** Which list it is on: new flows are served first, once; 'none' when idle. */
  list: 'new' | 'old' | 'none';
}

/**
 * FQ-CoDel (RFC 8290) as Linux's sch_fq_codel runs it: a queue per flow (here by the packet's flow
 * number, so no two flows share one, where Linux hashes five-tuples into 1024 buckets), served by
 * deficit round robin with a quantum of bytes; a flow that becomes active joins the new-flows list,
 * served before the old flows, and moves to the old ones once its deficit is spent (or when it empties
 * while old flows wait). Each flow has its own CoDel (this model's CoDel, with ECN marks when the
 * link's ECN is on), which, as Linux's, spares a packet only when the whole queue (every flow's bytes)
 * holds at most a packet's worth besides it; unlike Linux's, it never judges a flow's only packet. Over the limit, the fattest flow loses packets from its head: up to half its bytes
 * or 64 packets.
 */
export class FqCodelQueue implements PacketQueue {
  private readonly flows: Flow[] = [];
  private readonly newFlows: Flow[] = [];
  private readonly oldFlows: Flow[] = [];
  length = 0;
  bytes = 0;
  onDrop: (packet: Packet, now: number) => void = () => {};
  onMark: (packet: Packet, now: number) => void = () => {};

  constructor(
    private readonly maxPackets: number,
    private readonly maxBytes: number,
    private readonly target: number,
    private readonly interval: number,
    private readonly quantum: number,
    private readonly ecn: boolean,
  ) {}

  private flow(id: number): Flow {
    let f = this.flows[id];
    if (f === undefined) {
      const queue = new CodelQueue(Infinity, Infinity, this.target, this.interval, this.ecn);
      queue.onDrop = (p, now) => this.dropped(p, now);
      queue.onMark = (p, now) => this.onMark(p, now);
      // the packet taken is still counted here until it is handed out; the ones dropped are not
      queue.backlogWithout = (taken) => this.bytes - taken.bytes;
      f = this.flows[id] = { queue, deficit: 0, list: 'none' };
    }
    return f;
  }

  private dropped(packet: Packet, now: number): void {
    this.length--;
    this.bytes -= packet.bytes;
    this.onDrop(packet, now);
  }

  push(packet: Packet, arrival: number): boolean {
    if (packet.bytes > this.maxBytes) return false;
    const f = this.flow(packet.flow);
    f.queue.push(packet, arrival);
    this.length++;
    this.bytes += packet.bytes;
    if (f.list === 'none') {
      f.list = 'new';
      f.deficit = this.quantum;
      this.newFlows.push(f);
    }
    if (this.length > this.maxPackets || this.bytes > this.maxBytes) this.dropFromFattest(arrival);
    return true;
  }

  private dropFromFattest(now: number): void {
    let fattest = this.flows[0];
    for (const f of this.flows) if (f !== undefined && (fattest === undefined || f.queue.bytes > fattest.queue.bytes)) fattest = f;
    const q = fattest.queue;
    const threshold = q.bytes / 2;
    let dropped = 0;
    for (let n = 0; n < DROP_BATCH && dropped < threshold && q.length > 0; n++) {
      const p = q.dropHead();
      dropped += p.bytes;
      this.dropped(p, now);
    }
  }

  /** The flow DRR serves next, its deficit refilled and the lists rotated as Linux's dequeue does. */
  private next(): Flow {
    for (;;) {
      const fromNew = this.newFlows.length > 0;
      const list = fromNew ? this.newFlows : this.oldFlows;
      const f = list[0];
      if (f.deficit <= 0) {
        f.deficit += this.quantum;
        this.moveToOld(list);
      } else if (f.queue.length === 0) {
        if (fromNew && this.oldFlows.length > 0) this.moveToOld(list);
        else {
          list.shift();
          f.list = 'none';
        }
      } else return f;
    }
  }

  private moveToOld(from: Flow[]): void {
    const f = from.shift()!;
    f.list = 'old';
    this.oldFlows.push(f);
  }

  get headArrival(): number {
    return this.next().queue.headArrival;
  }

  shift(now: number): Packet {
    const f = this.next();
    const packet = f.queue.shift(now);
    this.length--;
    this.bytes -= packet.bytes;
    f.deficit -= packet.bytes;
    return packet;
  }
}

export const fqCodel = defineDiscipline({
  kind: 'fq-codel',
  title: 'FQ-CoDel',
  params: {
    target: num('fqCodelTarget', 'ms', 1, 1000, 1, 5, 'FQ-CoDel: each flow’s CoDel target'),
    interval: num('fqCodelInterval', 'ms', 1, 10_000, 1, 100, 'FQ-CoDel: each flow’s CoDel interval'),
    quantum: num('fqCodelQuantum', 'bytes', 64, 65_536, 1, 1514, 'FQ-CoDel: bytes a flow may send per round (DRR quantum)'),
  },
  create: (limits, d, _rng, ecn) => new FqCodelQueue(limits.packets, limits.bytes, d.target, d.interval, d.quantum, ecn),
});
