import { describe, expect, it } from 'vitest';
import { createQueue } from '../../shared/link/queue.ts';
import { RedQueue } from '../../shared/link/red.ts';
import { ECN, type Packet } from '../../shared/net/packet.ts';
import { Rng } from '../../shared/sim/rng.ts';
import { packet } from '../helpers/capture.ts';

const of = (seq: number, ecn: number = ECN.notEct): Packet => Object.assign(packet(seq, 1500), { ecn });

/** Thresholds 3000 and 6000 bytes, max_p 0.1, weight ½, every draw R = 0.05. */
function red(ecn: boolean) {
  const q = new RedQueue(Infinity, Infinity, 3000, 6000, 0.1, 0.5, { next: () => 0.05 } as unknown as Rng, ecn);
  const marks: number[] = [];
  q.onMark = (p) => marks.push(p.seq);
  return { q, marks };
}

describe('RED (Linux sch_red)', () => {
  it('averages the backlog at each arrival, queues below min, and between the thresholds marks once count·p_b reaches R', () => {
    const { q } = red(false);
    // averages: 0, 750, 1875, 3187.5 (≥ min: count 0, R drawn, queued), then 4593.75:
    // p_b = 0.1·(4593.75 − 3000)/3000 = 0.053125, count 1: 0.053125 ≥ 0.05, so dropped
    expect([0, 1, 2, 3].map((s) => q.push(of(s), 0))).toEqual([true, true, true, true]);
    expect(q.average).toBe(3187.5);
    expect(q.push(of(4), 0)).toBe(false);
    expect(q.average).toBe(4593.75);
    // the backlog is still 6000: average 5296.875; count 1 since the drop: p_b = 0.0766 ≥ R, dropped again
    expect(q.push(of(5), 0)).toBe(false);
    expect(q.average).toBe(5296.875);
  });

  it('with ECN marks ECN-capable packets CE where it would drop them, and drops above max only Not-ECT', () => {
    const { q, marks } = red(true);
    for (let s = 0; s < 4; s++) q.push(of(s, ECN.ect0), 0);
    const p4 = of(4, ECN.ect0);
    expect(q.push(p4, 0)).toBe(true); // marked and queued: backlog 7500
    expect(p4.ecn).toBe(ECN.ce);
    // 4593.75 + (7500 − 4593.75)/2 = 6046.875 ≥ max: a hard mark
    const p5 = of(5, ECN.ect1);
    expect(q.push(p5, 0)).toBe(true);
    expect(q.average).toBe(6046.875);
    expect(p5.ecn).toBe(ECN.ce);
    expect(q.push(of(6), 0)).toBe(false); // Not-ECT above max: dropped
    expect(marks).toEqual([4, 5]);
  });

  it('lets the average decay over an idle period, by the shortest departure gap it has seen', () => {
    const { q } = red(false);
    q.push(of(0), 0);
    q.push(of(1), 0); // average 750
    q.shift(1);
    q.shift(2); // 1 ms apart: the service time; empty at 2
    q.push(of(2), 5); // idle 3 ms: 750·½³ = 93.75, the arrival's own step left out, as Linux's red_calc_qavg does
    expect(q.average).toBe(93.75);
    q.push(of(3), 5); // busy again: towards the 1500 bytes queued, 93.75 + (1500 − 93.75)·½
    expect(q.average).toBe(796.875);
  });

  it('is built from a queue spec', () => {
    expect(createQueue({ kind: 'bytes', limit: 100_000, discipline: { kind: 'red', min: 30_000, max: 90_000, maxP: 0.02, weight: 0.002 } }, new Rng(1))).toBeInstanceOf(RedQueue);
  });
});
