import { DROP, K } from '../log/kinds.ts';
import type { Packet, PacketSink } from '../net/packet.ts';
import type { Rng } from '../sim/rng.ts';
import type { Scheduler } from '../sim/scheduler.ts';
import type { LinkTap } from './bottleneck.ts';
import type { ImpairmentSpec } from './impairments.ts';
import { CorrelatedRandom, netemPercent, netemRate, packetTimeNs, uniformDelayNs } from './netemRandom.ts';
import { TimeFifo } from './netemFifo.ts';

/** tc's default `limit`: packets the qdisc holds, delayed ones included. */
export const NETEM_LIMIT = 1000;

/** One direction's netem qdisc, as `tc qdisc add … netem limit L delay D J rate R loss … duplicate … reorder … gap G`. */
export interface NetemSettings {
  latencyMs: number;
  /** The rate, Mbit/s; 0 sets none (netem then only delays). */
  mbps: number;
  limit: number;
  impair: ImpairmentSpec;
}

/** A direction through the qdisc: where its packets go out, and how it logs them. */
export interface NetemWay {
  next: PacketSink | null;
  tap: LinkTap;
  /** Whether this is the ACK direction (its losses are logged as ACK losses). */
  ack: boolean;
  /** This direction's packets the qdisc holds. */
  held: number;
}

const ms = (ns: number) => ns / 1e6;

/**
 * Linux's sch_netem (net/sched/sch_netem.c, netem_enqueue and netem_dequeue) for one direction, in its
 * arithmetic: per packet, the duplicate draw, then the loss draw (a packet both duplicated and lost goes
 * once); then the limit (`qlen >= limit` drops it, delayed packets count); the duplicate is enqueued
 * first, with a loss draw and a limit check of its own and no duplicate; then either the reordering branch
 * (past the gap, with the reorder probability) sends the packet at once, ahead of everything, and restarts
 * the gap count, or the packet gets its delay, μ ± σ uniform, and with a rate it waits for the last packet
 * queued: `delay -= last.time_to_send − now` (not below 0), counted from that packet's time_to_send, plus
 * its own len ÷ rate. Packets leave in time_to_send order (the tfifo), ties in arrival order. Times are
 * whole nanoseconds, as in the kernel. Under load a packet thus waits about the larger of the delay and the
 * backlog, plus its transmission time, where the Mahimahi model adds the queue and the delay.
 *
 * Where this deviates: the random numbers come from the run's seeded generator, one stream per draw kind
 * (the kernel draws all from one prandom state, so turning one impairment on here leaves the others'
 * draws as they were); a packet's length is the model's (IPv4 + UDP + payload: netem on a loopback
 * interface counts 14 bytes of Ethernet header more); the qdisc is dequeued the moment a packet is due
 * (the kernel's watchdog timer, and loopback's transmit, add microseconds); the Gilbert–Elliott model has
 * no loss in the good state (tc's `1-k` of 0); ECN marking, corruption, slots and distribution tables
 * (`distribution normal` …) are not modelled. netem does not tell queueing from delay: a packet's
 * `depart` row, when it leaves the qdisc (and reaches the far end), carries as its queueing delay the time it
 * was held past its delay draw — the backlog it waited for and its own transmission.
 *
 * One qdisc may carry both directions, as one netem on a loopback interface does (a course harness's
 * `tc qdisc add dev lo root netem …`): data and replies then share its rate, its limit, its impairments and
 * its time order, so a reply waits behind the data queued before it.
 */
export class NetemQdisc {
  private readonly fifo = new TimeFifo();
  private counter = 0;
  private bad = false;
  private readonly bytesPerSecond: number;
  private readonly latencyNs: number;
  private readonly jitterNs: number;
  private readonly gap: number;
  private readonly p: { loss: number; duplicate: number; reorder: number; toBad: number; toGood: number; passBad: number };
  private readonly draws: { loss: CorrelatedRandom; duplicate: CorrelatedRandom; reorder: CorrelatedRandom; delay: CorrelatedRandom; burst: Rng };
  private releaseAt = Infinity;
  private readonly limit: number;
  private readonly burst: boolean;
  private readonly release = (now: number) => {
    this.releaseAt = Infinity;
    const nowNs = Math.round(now * 1e6);
    while (this.fifo.length > 0 && this.fifo.headTime <= nowNs) {
      const { packet, queuedFrom, way } = this.fifo.shift();
      way.held--;
      this.depart(packet, way, queuedFrom, now);
    }
    this.arm();
  };

  constructor(
    private readonly scheduler: Scheduler,
    s: NetemSettings,
    rng: Rng,
    /** The directions through it: one, or both when one qdisc carries both (netem on a loopback interface). */
    private readonly ways: readonly NetemWay[],
  ) {
    const i = s.impair;
    const c = i.correlation ?? { loss: 0, duplicate: 0, reorder: 0, jitter: 0 };
    this.bytesPerSecond = netemRate(s.mbps);
    this.latencyNs = Math.round(s.latencyMs * 1e6);
    this.jitterNs = Math.round(i.jitter * 1e6);
    this.limit = s.limit;
    // tc sets gap 1 when reordering is asked for without one; gap 0 turns reordering off
    this.gap = i.reorder > 0 ? Math.max(1, i.gap ?? 1) : 0;
    this.p = {
      loss: netemPercent(i.loss),
      duplicate: netemPercent(i.duplicate),
      reorder: netemPercent(i.reorder),
      toBad: netemPercent(i.burst?.p ?? 0),
      toGood: netemPercent(i.burst?.r ?? 0),
      passBad: netemPercent(1 - (i.burst?.lossBad ?? 0)),
    };
    this.draws = {
      loss: new CorrelatedRandom(rng.stream('netem-loss'), c.loss),
      duplicate: new CorrelatedRandom(rng.stream('netem-duplicate'), c.duplicate),
      reorder: new CorrelatedRandom(rng.stream('netem-reorder'), c.reorder),
      delay: new CorrelatedRandom(rng.stream('netem-delay'), c.jitter),
      burst: rng.stream('netem-burst'),
    };
    this.burst = i.burst !== null;
  }

  /** Packets the qdisc holds (sch->q.qlen). */
  get length(): number {
    return this.fifo.length;
  }

  /** Where the packets of direction `way` enter. */
  entry(way: number): PacketSink {
    return { receive: (packet, now) => this.enqueue(packet, this.ways[way], now, true) };
  }

  private enqueue(packet: Packet, way: NetemWay, now: number, mayDuplicate: boolean): void {
    let count = 1;
    if (mayDuplicate && this.p.duplicate !== 0 && this.p.duplicate >= this.draws.duplicate.next()) count++;
    const lost = this.lossEvent();
    if (lost) count--;
    if (count === 0) return this.drop(packet, way, now, way.ack ? DROP['ack-loss'] : (lost as number));
    if (this.fifo.length >= this.limit) return this.drop(packet, way, now, way.tap.dropReason);
    if (count > 1) {
      way.tap.log.push(now, K.duplicate, packet.flow, packet.seq, packet.bytes, way.ack ? 1 : 0, 0);
      this.enqueue({ ...packet }, way, now, false);
    }
    const nowNs = Math.round(now * 1e6);
    if (this.gap === 0 || this.counter < this.gap - 1 || this.p.reorder < this.draws.reorder.next()) {
      this.counter++;
      const { time, delayNs } = this.timeToSend(packet.bytes, nowNs);
      this.hold(packet, way, now, time, now + ms(delayNs));
    } else {
      // Reordered: put at the head with time_to_send = now, so the next dequeue, right away, sends it.
      this.counter = 0;
      if (way.tap.detailed) way.tap.log.push(now, K.enqueue, packet.flow, packet.seq, packet.bytes, this.fifo.length + 1, 0);
      this.depart(packet, way, now, now);
    }
  }

  /** The packet's time_to_send, ns: its delay draw, and with a rate the backlog and its own transmission. */
  private timeToSend(bytes: number, nowNs: number): { time: number; delayNs: number } {
    const delayNs = uniformDelayNs(this.latencyNs, this.jitterNs, this.draws.delay);
    let delay = delayNs;
    let from = nowNs;
    if (this.bytesPerSecond > 0) {
      if (this.fifo.length > 0) {
        const last = this.fifo.lastTime;
        delay = Math.max(0, delay - (last - nowNs));
        from = last;
      }
      delay += packetTimeNs(bytes, this.bytesPerSecond);
    }
    return { time: from + delay, delayNs };
  }

  /** netem's loss_event: random (q->loss >= get_crandom) or, with a burst set, its Gilbert–Elliott chain. */
  private lossEvent(): number | false {
    if (this.burst) return this.gilbertElliott() ? DROP['burst-loss'] : false;
    return this.p.loss !== 0 && this.p.loss >= this.draws.loss.next() ? DROP.loss : false;
  }

  /** loss_gilb_ell: the state the packet finds decides its loss draw; the transition draw comes first. */
  private gilbertElliott(): boolean {
    const r = this.draws.burst;
    if (!this.bad) {
      if (r.nextUint32() < this.p.toBad) this.bad = true;
      r.nextUint32(); // the good state's loss draw, against a loss of 0
      return false;
    }
    if (r.nextUint32() < this.p.toGood) this.bad = false;
    return r.nextUint32() > this.p.passBad;
  }

  /** Holds the packet until `timeToSendNs`; what it waits past `queuedFrom` (its arrival plus its delay draw) is its queueing. */
  private hold(packet: Packet, way: NetemWay, now: number, timeToSendNs: number, queuedFrom: number): void {
    this.fifo.push(packet, way, queuedFrom, timeToSendNs);
    way.held++;
    if (way.tap.detailed) way.tap.log.push(now, K.enqueue, packet.flow, packet.seq, packet.bytes, this.fifo.length, 0);
    this.arm();
  }

  private arm(): void {
    if (this.fifo.length === 0) return;
    const at = ms(this.fifo.headTime);
    if (at >= this.releaseAt) return;
    this.releaseAt = at;
    this.scheduler.at(at, (t) => {
      if (this.releaseAt === at) this.release(t);
    });
  }

  private depart(packet: Packet, way: NetemWay, queuedFrom: number, now: number): void {
    if (way.tap.detailed) way.tap.log.push(now, K.depart, packet.flow, packet.seq, packet.bytes, Math.max(0, now - queuedFrom), 0);
    way.next!.receive(packet, now);
  }

  private drop(packet: Packet, way: NetemWay, now: number, reason: number): void {
    way.tap.log.push(now, K.drop, packet.flow, packet.seq, packet.bytes, reason, 0);
  }
}
