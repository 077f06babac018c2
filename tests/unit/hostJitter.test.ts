import { describe, expect, it } from 'vitest';
import { HostJitter } from '../../shared/endpoints/hostJitter.ts';
import { dataPacket, type Packet } from '../../shared/net/packet.ts';
import { Rng } from '../../shared/sim/rng.ts';
import { Scheduler } from '../../shared/sim/scheduler.ts';

/** Hands `n` packets over at the given times and returns when each left the host, in the order they left. */
function leave(times: number[], spreadMs: number, seed = 1) {
  const scheduler = new Scheduler();
  const left: { seq: number; t: number }[] = [];
  const host = new HostJitter(scheduler, spreadMs, new Rng(seed, 'host'), { receive: (p: Packet, t: number) => left.push({ seq: p.seq, t }) });
  times.forEach((t, seq) => scheduler.at(t, (now) => host.receive(dataPacket(0, seq, now), now)));
  const held: number[] = [];
  scheduler.at(times[times.length - 1], () => held.push(host.held));
  scheduler.run(Infinity);
  return { left, held: held[0], after: host.held };
}

describe('a host’s timing noise', () => {
  it('delays each packet by less than the spread, keeps their order, and counts what it holds', () => {
    const rng = new Rng(1, 'host');
    const draws = [rng.next(), rng.next(), rng.next()].map((u) => u * 0.24);
    const { left, held, after } = leave([0, 10, 20], 0.24);
    expect(left).toEqual([
      { seq: 0, t: draws[0] },
      { seq: 1, t: 10 + draws[1] },
      { seq: 2, t: 20 + draws[2] },
    ]);
    expect(held).toBe(1);
    expect(after).toBe(0);
  });

  it('never sends a packet before one handed over earlier', () => {
    const { left } = leave(Array(200).fill(5), 1, 7);
    expect(left.map((l) => l.seq)).toEqual([...Array(200).keys()]);
    for (let i = 1; i < left.length; i++) expect(left[i].t).toBeGreaterThanOrEqual(left[i - 1].t);
    expect(left[199].t).toBeLessThan(6);
  });
});
