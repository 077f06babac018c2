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

  it('marks an L packet that waited longer than the 1 ms step, unless it is the only one', () => {
    const { q, marks } = queue();
    for (let s = 0; s < 3; s++) q.push(withEcn(s, ECN.ect1), 0);
    expect(q.shift(1).ecn).toBe(ECN.ect1); // waited 1 ms: not above the step
    expect(q.shift(2).ecn).toBe(ECN.ce); // 2 ms, one behind it
    expect(q.shift(3).ecn).toBe(ECN.ect1); // alone
    expect(marks).toEqual([1]);
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
