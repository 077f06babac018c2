import { num } from '../controllers/types.ts';
import { DATA_BYTES, ECN, type Packet } from '../net/packet.ts';
import type { Rng } from '../sim/rng.ts';
import { defineDiscipline, markInstead, type PacketQueue } from './discipline.ts';
import { DropTailQueue } from './fifo.ts';

/** PI2's gains per second of queueing delay, and its update interval (Linux's sch_dualpi2 defaults). */
const ALPHA = 0.16;
const BETA = 3.2;
const T_UPDATE = 16;
/** The classic queue's share under contention (Linux's c_protection 10%): weights of the credit scheduler. */
const WEIGHT_C = 10;
const WEIGHT_L = 90;
/**
 * Linux's psched_mtu(): the device MTU plus its link-layer header, 1514 on Ethernet, against packet
 * lengths that include that header. The model's packets carry no link-layer header and its largest is
 * DATA_BYTES (1500), so that is its MTU: two full packets make the 2-MTU backlog here as they do in Linux.
 */
const MTU = DATA_BYTES;
/** Linux's c_protection_init: the credit the scheduler starts from, and returns to whenever both queues empty. */
const CREDIT_INIT = MTU * (WEIGHT_C - WEIGHT_L);

/**
 * DualPI2 (RFC 9332, Linux's sch_dualpi2): ECT(1) and CE packets (L4S) take the L queue, the rest the
 * classic one. A PI controller updates p′ every 16 ms from the larger head sojourn of the two queues
 * against `target`: p′ += α·(q − target) + β·(q − q_prev), with α = 0.16 and β = 3.2 per second. The
 * classic queue drops (or marks, if ECT(0)) with p_C = p′², the L queue marks with the coupled
 * p_CL = k·p′, or always once its head waited more than `step` (the native L4S step). As Linux's
 * must_drop(), neither p′² nor k·p′ acts while the backlog (the packet judged left out) is under 2 MTU.
 * Linux's scheduler serves L first while the classic queue's credit (10% of the bytes under contention)
 * allows, and resets that credit whenever both queues empty, so after an idle period L goes first again.
 * Where this differs: classic decisions are taken at enqueue (Linux's `drop_enqueue` option, not its
 * default), so a dequeue never drops and the link reads the head it sends; the overload rules are left out.
 */
export class DualPi2Queue implements PacketQueue {
  private readonly l = new DropTailQueue(Infinity, Infinity);
  private readonly c = new DropTailQueue(Infinity, Infinity);
  onDrop: (packet: Packet, now: number) => void = () => {};
  onMark: (packet: Packet, now: number) => void = () => {};
  private p = 0;
  private prevDelay = 0;
  private lastUpdate = 0;
  /** Positive: the classic queue is owed service (Linux's c_protection_credit, from its initial value). */
  private credit = CREDIT_INIT;

  constructor(
    private readonly maxPackets: number,
    private readonly maxBytes: number,
    private readonly target: number,
    private readonly step: number,
    private readonly k: number,
    private readonly rng: Rng,
  ) {}

  get length(): number {
    return this.l.length + this.c.length;
  }

  get bytes(): number {
    return this.l.bytes + this.c.bytes;
  }

  /** The drop probability the classic queue runs at (p′²). */
  get classicProbability(): number {
    return this.p * this.p;
  }

  push(packet: Packet, arrival: number): boolean {
    this.update(arrival);
    if (this.length + 1 > this.maxPackets || this.bytes + packet.bytes > this.maxBytes) return false;
    if (packet.ecn === ECN.ect1 || packet.ecn === ECN.ce) {
      this.l.push(packet, arrival);
      return true;
    }
    if (this.congested() && this.rng.next() < this.p * this.p) {
      if (!markInstead(this, packet, arrival, true)) return false;
    }
    this.c.push(packet, arrival);
    return true;
  }

  /** Linux's must_drop() guard: p′ acts only on a backlog (the packet judged not counted) of at least 2 MTU. */
  private congested(): boolean {
    return this.bytes >= 2 * MTU;
  }

  /** Whether the next packet out is the L queue's: it has one, and the classic queue is empty or owed nothing. */
  private servesL(): boolean {
    return this.l.length > 0 && (this.c.length === 0 || this.credit <= 0);
  }

  get headArrival(): number {
    return this.servesL() ? this.l.headArrival : this.c.headArrival;
  }

  shift(now: number): Packet {
    this.update(now);
    if (!this.servesL()) {
      const packet = this.c.shift();
      if (this.l.length > 0) this.credit -= WEIGHT_L * packet.bytes;
      this.resetCreditIfEmpty();
      return packet;
    }
    const sojourn = now - this.l.headArrival;
    const packet = this.l.shift();
    if (this.c.length > 0) this.credit += WEIGHT_C * packet.bytes;
    this.resetCreditIfEmpty();
    // the coupled mark first, drawn only on a backlog of 2 MTU or more, then the step, as Linux's dequeue
    const coupled = this.congested() && this.rng.next() < this.k * this.p;
    // Linux's default min_qlen_step = 0 steps even the L queue's only packet. RFC 9332's example
    // pseudocode (Appendix A) differs: it step-marks only while the L queue is longer than Th_len (one
    // packet), sparing a lone packet. This follows Linux, as the README presents its sch_dualpi2.
    const stepped = sojourn > this.step;
    if (coupled || stepped) markInstead(this, packet, now, true);
    return packet;
  }

  /**
   * Linux's dequeue_packet() resets the credit when it finds both queues empty, which it does at the
   * dequeue after the one that emptied them (nothing changes the credit in between).
   */
  private resetCreditIfEmpty(): void {
    if (this.length === 0) this.credit = CREDIT_INIT;
  }

  /** PI2's update, once for every T_UPDATE ms since the last, from the queues as they stand. */
  private update(now: number): void {
    while (now - this.lastUpdate >= T_UPDATE) {
      this.lastUpdate += T_UPDATE;
      const at = this.lastUpdate;
      const delay = Math.max(this.c.length > 0 ? at - this.c.headArrival : 0, this.l.length > 0 ? at - this.l.headArrival : 0, 0);
      this.p += (ALPHA * (delay - this.target) + BETA * (delay - this.prevDelay)) / 1000;
      this.p = Math.min(1, Math.max(0, this.p));
      this.prevDelay = delay;
    }
  }
}

export const dualPi2 = defineDiscipline({
  kind: 'dualpi2',
  title: 'DualPI2',
  params: {
    target: num('dualpi2Target', 'ms', 1, 1000, 1, 15, 'DualPI2: the classic queue’s target delay'),
    step: num('dualpi2Step', 'ms', 0.1, 100, 0.1, 1, 'DualPI2: the L4S queue marks every packet that waited longer'),
    k: num('dualpi2K', '', 0.5, 10, 0.5, 2, 'DualPI2: coupling factor k (p_CL = k·p′)'),
  },
  create: (limits, d, rng) => new DualPi2Queue(limits.packets, limits.bytes, d.target, d.step, d.k, rng),
});
