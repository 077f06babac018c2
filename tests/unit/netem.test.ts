import { describe, expect, it } from 'vitest';
import { dataTap } from '../../shared/link/bottleneck.ts';
import { type ImpairmentSpec, NO_IMPAIRMENTS } from '../../shared/link/impairments.ts';
import { NetemQdisc } from '../../shared/link/netem.ts';
import { CorrelatedRandom, netemPercent, netemRate, packetTimeNs, uniformDelayNs } from '../../shared/link/netemRandom.ts';
import { EventLog } from '../../shared/log/eventLog.ts';
import { DROP, K } from '../../shared/log/kinds.ts';
import { ackFor } from '../../shared/net/packet.ts';
import { rateLink } from '../../shared/scenarios/presets.ts';
import { buildNetwork } from '../../shared/scenarios/network.ts';
import { Rng } from '../../shared/sim/rng.ts';
import { Scheduler } from '../../shared/sim/scheduler.ts';
import { Capture, packet } from '../helpers/capture.ts';

/** 0.1 Mbit/s is tc's 12500 bytes per second: a 1250-byte packet takes 100 ms. */
const SLOW = 0.1;

function setup(latencyMs: number, mbps: number, impair: Partial<ImpairmentSpec> = {}, limit = 1000) {
  const s = new Scheduler();
  const log = new EventLog();
  const out = new Capture();
  const way = { next: out, tap: dataTap(log), ack: false, held: 0 };
  const q = new NetemQdisc(s, { latencyMs, mbps, limit, impair: { ...NO_IMPAIRMENTS, ...impair } }, new Rng(1), [way]);
  const send = (at: number, seq: number, bytes = 1250) => s.at(at, (now) => q.entry(0).receive(packet(seq, bytes), now));
  const drops = () => Array.from({ length: log.length }, (_, i) => i).filter((i) => log.columns.kind[i] === K.drop);
  return { s, log, out, send, way, drops };
}

describe("netem's arithmetic", () => {
  it('tc stores rates in whole bytes per second and probabilities as u32 fractions', () => {
    expect(netemRate(SLOW)).toBe(12_500);
    expect(packetTimeNs(1250, 12_500)).toBe(100_000_000);
    expect(packetTimeNs(1028, 12_500)).toBe(82_240_000);
    expect(netemPercent(1)).toBe(0xffffffff);
    expect(netemPercent(0.5)).toBe(2_147_483_648);
  });

  it('jitter is ((rnd mod 2σ) + μ) − σ, in whole nanoseconds, below zero when σ > μ', () => {
    expect(uniformDelayNs(100, 0, { next: () => 7 })).toBe(100);
    expect(uniformDelayNs(100, 10, { next: () => 25 })).toBe(95);
    expect(uniformDelayNs(100, 10, { next: () => 19 })).toBe(109);
    expect(uniformDelayNs(5, 10, { next: () => 0 })).toBe(-5);
  });

  it('a correlated draw is (v·(2³² − ρ − 1) + last·(ρ + 1)) >> 32', () => {
    const values = [2 ** 31, 0, 0xffffffff];
    const rng = { nextUint32: () => values.shift()! } as unknown as Rng;
    const r = new CorrelatedRandom(rng, 0.5);
    // ρ + 1 = 2147483649: (0 · 2147483647 + 2³¹ · 2147483649) >> 32 = 2³⁰
    expect(r.next()).toBe(2 ** 30);
    expect(r.next()).toBe(2_684_354_558);
  });
});

describe('the netem qdisc', () => {
  it("a backlog absorbs the delay: time_to_send counts from the last packet's, less what the backlog already waits", () => {
    const { s, out, send, log } = setup(150, SLOW);
    send(0, 0); // empty: 0 + 150 + 100
    send(0, 1); // last 250: 150 − 250 < 0, so 250 + 100
    send(0, 2); // 350 + 100
    send(260, 3); // last 450: 150 − 190 < 0, so 450 + 100
    send(500, 4); // last 550: 150 − 50 = 100 left of the delay, so 550 + 100 + 100 = 500 + 150 + 100
    s.run();
    expect(out.times).toEqual([250, 350, 450, 550, 750]);
    // its queueing delay: held past its delay draw (the backlog it waited for and its transmission)
    const departs = Array.from({ length: log.length }, (_, i) => i).filter((i) => log.columns.kind[i] === K.depart);
    expect(departs.map((i) => log.columns.value[i])).toEqual([100, 200, 300, 140, 100]);
  });

  it('a full queue drops at qlen ≥ limit, counting packets that are only delayed', () => {
    const { s, out, send, drops, log } = setup(100, 0, {}, 3);
    for (let k = 0; k < 5; k++) send(0, k);
    send(50, 5); // the three are still in their delay
    send(150, 6); // gone at 100: room again
    s.run();
    expect(out.seqs).toEqual([0, 1, 2, 6]);
    expect(drops().map((i) => [log.columns.seq[i], log.columns.value[i]])).toEqual([
      [3, DROP.queue],
      [4, DROP.queue],
      [5, DROP.queue],
    ]);
  });

  it('a reordered packet, past the gap, goes at once, ahead of the rate queue and the delay, and restarts the gap', () => {
    const { s, out, send } = setup(100, SLOW, { reorder: 1, gap: 3 });
    send(0, 0); // counter 0 < gap − 1: delayed, 0 + 100 + 100
    send(0, 1); // counter 1 < 2: 200 + 100
    send(0, 2); // counter 2: the reorder draw, at 100%: sent now; counter back to 0
    send(10, 3); // last 300: 100 − 290 < 0, so 300 + 100
    send(10, 4); // 400 + 100
    send(20, 5); // reordered
    s.run();
    expect(out.got.map((g) => [g.packet.seq, g.t])).toEqual([
      [2, 0],
      [5, 20],
      [0, 200],
      [1, 300],
      [3, 400],
      [4, 500],
    ]);
  });

  it('a duplicate is enqueued first, with a limit check of its own, so both may pass a limit one short', () => {
    const { s, out, send, log, drops } = setup(100, SLOW, { duplicate: 1 }, 1);
    send(0, 0); // the copy: 0 + 100 + 100; the original behind it: 200 + 100
    send(10, 1); // qlen 2 ≥ 1: dropped, copy and all
    s.run();
    expect(out.got.map((g) => [g.packet.seq, g.t])).toEqual([
      [0, 200],
      [0, 300],
    ]);
    expect(Array.from({ length: log.length }, (_, i) => log.columns.kind[i]).filter((k) => k === K.duplicate)).toHaveLength(1);
    expect(drops().map((i) => log.columns.seq[i])).toEqual([1]);
  });

  it('the duplicate draw comes before the loss draw: a packet both duplicated and lost goes once', () => {
    const both = setup(10, 0, { duplicate: 1, loss: 1 });
    both.send(0, 0);
    both.s.run();
    expect(both.out.seqs).toEqual([0]);
    const lost = setup(10, 0, { loss: 1 });
    lost.send(0, 0);
    lost.s.run();
    expect(lost.out.seqs).toEqual([]);
    expect(lost.drops().map((i) => lost.log.columns.value[i])).toEqual([DROP.loss]);
  });

  it("Gilbert–Elliott: the state a packet finds decides its loss, as netem's loss_gilb_ell", () => {
    // p = 100%: the first packet moves the chain to the bad state but, found in the good one, goes through
    const { s, out, send } = setup(10, 0, { burst: { p: 1, r: 0, lossBad: 1 } });
    for (let k = 0; k < 4; k++) send(k, k);
    s.run();
    expect(out.seqs).toEqual([0]);
  });

  it('jitter without a rate reorders by time_to_send; with a rate the backlog keeps the order', () => {
    const free = setup(100, 0, { jitter: 50 });
    const paced = setup(100, SLOW, { jitter: 50 });
    for (const { send, s } of [free, paced]) {
      for (let k = 0; k < 40; k++) send(k, k);
      s.run();
    }
    expect(free.out.seqs).not.toEqual([...free.out.seqs].sort((a, b) => a - b));
    expect(paced.out.seqs).toEqual(Array.from({ length: 40 }, (_, k) => k));
    expect(Math.min(...free.out.times.map((t, i) => t - free.out.got[i].packet.seq))).toBeGreaterThanOrEqual(50);
  });
});

describe('netem on a loopback interface', () => {
  const firstAckDelivery = (netemQdisc: 'loopback' | 'each-direction') => {
    const s = new Scheduler();
    const log = new EventLog();
    const link = { ...rateLink(SLOW, 100), model: 'netem' as const, limit: 1000, netemQdisc };
    const net = buildNetwork(s, link, log, { data: null, acks: null }, new Rng(1));
    const data = new Capture();
    const acks = new Capture();
    net.data.exit.next = data;
    net.acks.exit.next = acks;
    s.at(0, (t) => net.data.entry.receive(packet(0, 1250), t));
    s.at(10, (t) => net.acks.entry.receive(ackFor(packet(9, 1250), t), t));
    s.run();
    return { data: data.times, acks: acks.times };
  };

  it('one qdisc for both directions: a reply waits behind the data queued before it (80 bytes: 6.4 ms)', () => {
    // the data packet leaves at 200; the reply, at 10, finds it last: 100 − 190 < 0, so 200 + 6.4
    expect(firstAckDelivery('loopback')).toMatchObject({ data: [200], acks: [206.4] });
    // a qdisc per direction: 10 + 100 + 6.4
    expect(firstAckDelivery('each-direction')).toMatchObject({ data: [200], acks: [116.4] });
  });
});
