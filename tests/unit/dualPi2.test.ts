import { describe, expect, it } from 'vitest';
import { DualPi2Queue } from '../../shared/link/dualPi2.ts';
import { createQueue } from '../../shared/link/queue.ts';
import { ECN, type Packet } from '../../shared/net/packet.ts';
import { Rng } from '../../shared/sim/rng.ts';
import { packet } from '../helpers/capture.ts';

const withEcn = (seq: number, ecn: number): Packet => Object.assign(packet(seq, 1500), { ecn });
const drawing = (draw: { value: number }) => ({ next: () => draw.value }) as unknown as Rng;

function queue(draw = { value: 0.99 }) {
  const q = new DualPi2Queue(Infinity, Infinity, 15, 1, 2, drawing(draw));
  const marks: number[] = [];
  q.onMark = (p) => marks.push(p.seq);
  return { q, marks, draw };
}

describe('DualPI2 (RFC 9332)', () => {
  it('classifies ECT(1) and CE as L4S, and serves L first but gives classic 10% of the bytes (credit 10:90)', () => {
    const { q } = queue();
    for (let s = 0; s < 20; s++) q.push(withEcn(s, s % 2 ? ECN.ect1 : ECN.ce), 0);
    for (let s = 100; s < 105; s++) q.push(withEcn(s, s % 2 ? ECN.ect0 : ECN.notEct), 0);
    // credit from 1500·(10 − 90): each L packet with classic waiting adds 10·1500, a classic one takes 90·1500;
    // L is served while the credit is ≤ 0, so nine L packets, then one classic, twice; then L runs out
    const order = Array.from({ length: 25 }, () => (q.shift(0).seq >= 100 ? 'C' : 'L')).join('');
    expect(order).toBe('LLLLLLLLLCLLLLLLLLLCLLCCC');
  });

  it('marks an L packet that waited longer than the 1 ms step, even the only one (Linux’s min_qlen_step 0)', () => {
    const { q, marks } = queue();
    for (let s = 0; s < 3; s++) q.push(withEcn(s, ECN.ect1), 0);
    expect(q.shift(1).ecn).toBe(ECN.ect1); // waited 1 ms: not above the step
    expect(q.shift(2).ecn).toBe(ECN.ce); // 2 ms, one behind it
    expect(q.shift(3).ecn).toBe(ECN.ce); // 3 ms, the last one
    // a lone packet into the empty queue: marked if it waited above the step, whatever the queue behind it
    q.push(withEcn(3, ECN.ect1), 10);
    expect(q.shift(11).ecn).toBe(ECN.ect1); // 1 ms
    q.push(withEcn(4, ECN.ect1), 12);
    expect(q.shift(13.5).ecn).toBe(ECN.ce); // 1.5 ms
    expect(marks).toEqual([1, 2, 4]);
  });

  it('neither drops nor marks by p′ while the backlog, the packet itself left out, is under 2 MTU (3000 bytes)', () => {
    // every draw below p′: Linux's must_drop() would act on each packet but for its backlog guard
    const { q, marks } = queue({ value: 0 });
    q.push(withEcn(0, ECN.notEct), 0);
    // 16 ms: p′ > 0; 1500 bytes queued spare the arrival
    expect(q.push(withEcn(1, ECN.notEct), 16)).toBe(true);
    expect(q.classicProbability).toBeGreaterThan(0);
    while (q.length > 0) q.shift(16);
    // lone packets into the empty queue, every 0.5 ms to 26.5 ms (before the next update): none dropped, none marked
    const accepted: boolean[] = [];
    for (let s = 10; s < 20; s++) {
      const t = 17 + (s - 10) / 2;
      accepted.push(q.push(withEcn(s, ECN.notEct), t));
      while (q.length > 0) q.shift(t);
    }
    for (let s = 20; s < 30; s++) {
      const t = 22 + (s - 20) / 2;
      q.push(withEcn(s, ECN.ect1), t);
      q.shift(t); // no sojourn: the step does not apply
    }
    expect(accepted).toEqual(Array(10).fill(true));
    expect(marks).toEqual([]);
    // classic at enqueue: 0, 1500 and 2999 bytes queued spare the arrival, 4499 do not
    const pushes = [
      q.push(withEcn(30, ECN.notEct), 28),
      q.push(Object.assign(packet(31, 1499), { ecn: ECN.notEct }), 28),
      q.push(withEcn(32, ECN.notEct), 28), // 2999 queued
      q.push(withEcn(33, ECN.ect0), 28), // 4499 queued: marked instead
      q.push(withEcn(34, ECN.notEct), 28), // 5999: dropped
    ];
    expect(pushes).toEqual([true, true, true, true, false]);
    expect(marks).toEqual([33]);
    while (q.length > 0) q.shift(28);
    // L at dequeue, by what is left behind it: 3000 bytes, then 1500, then none
    for (let s = 40; s < 43; s++) q.push(withEcn(s, ECN.ect1), 29);
    expect([q.shift(29), q.shift(29), q.shift(29)].map((p) => p.ecn)).toEqual([ECN.ce, ECN.ect1, ECN.ect1]);
    expect(marks).toEqual([33, 40]);
  });

  it('resets the scheduler’s credit when both queues empty, so after idle L is served first again', () => {
    const { q } = queue();
    // nine L packets with a classic one waiting take the credit from 1500·(10 − 90) to +15000: classic is owed
    for (let s = 0; s < 9; s++) q.push(withEcn(s, ECN.ect1), 0);
    q.push(withEcn(100, ECN.notEct), 0);
    const first = Array.from({ length: 10 }, () => (q.shift(0).seq >= 100 ? 'C' : 'L')).join('');
    expect(first).toBe('LLLLLLLLLC');
    expect(q.length).toBe(0);
    // after idle, one classic then ten L arrive together: from the reset credit, nine L go before the classic
    q.push(withEcn(101, ECN.notEct), 50);
    for (let s = 10; s < 20; s++) q.push(withEcn(s, ECN.ect1), 50);
    const after = Array.from({ length: 11 }, () => (q.shift(50).seq >= 100 ? 'C' : 'L')).join('');
    expect(after).toBe('LLLLLLLLLCL');
  });

  it('updates p′ every 16 ms by PI2, drops classic with p′², marks classic ECT(0) with it, and L with k·p′', () => {
    const { q, marks, draw } = queue();
    q.push(withEcn(0, ECN.notEct), 0);
    // 16 ms: delay 16 → p′ = (0.16·(16 − 15) + 3.2·(16 − 0)) / 1000
    q.push(withEcn(1, ECN.notEct), 16);
    const p1 = (0.16 * 1 + 3.2 * 16) / 1000;
    expect(q.classicProbability).toBeCloseTo(p1 * p1, 15);
    // 32 ms: delay 32 → p′ += (0.16·17 + 3.2·16) / 1000
    const p2 = p1 + (0.16 * 17 + 3.2 * 16) / 1000;
    draw.value = p2 * p2 - 1e-9;
    expect(q.push(withEcn(2, ECN.notEct), 32)).toBe(false); // dropped
    expect(q.classicProbability).toBeCloseTo(p2 * p2, 15);
    expect(q.push(withEcn(3, ECN.ect0), 32)).toBe(true); // marked instead
    draw.value = p2 * p2 + 1e-9;
    expect(q.push(withEcn(4, ECN.notEct), 32)).toBe(true);
    expect(marks).toEqual([3]);
    // L: k·p′ = 2·p2; the step does not apply to a packet that arrived now
    q.push(withEcn(5, ECN.ect1), 32);
    q.push(withEcn(6, ECN.ect1), 32);
    draw.value = 2 * p2 - 1e-9;
    expect(q.shift(32).ecn).toBe(ECN.ce);
    draw.value = 2 * p2 + 1e-9;
    expect(q.shift(32).ecn).toBe(ECN.ect1);
    expect(marks).toEqual([3, 5]);
  });

  it('refuses what exceeds its limit over both queues, and is built from a queue spec', () => {
    const q = new DualPi2Queue(2, Infinity, 15, 1, 2, new Rng(1));
    expect([q.push(withEcn(0, ECN.ect1), 0), q.push(withEcn(1, ECN.notEct), 0), q.push(withEcn(2, ECN.ect1), 0)]).toEqual([true, true, false]);
    expect(createQueue({ kind: 'packets', limit: 5, discipline: { kind: 'dualpi2', target: 15, step: 1, k: 2 } }, new Rng(1))).toBeInstanceOf(DualPi2Queue);
  });
});
