import { describe, expect, it } from 'vitest';
import { flow } from '../../shared/scenarios/presets.ts';
import { scoreSegments } from '../../shared/stress/score.ts';
import { type Evaluate, gapOf, POPULATION, searchWorstTrace } from '../../shared/stress/search.ts';
import type { Segment } from '../../shared/stress/segments.ts';

/** A stand-in controller whose score falls with every ms of outage: the worst trace is all outage it can be. */
const outageHater: Evaluate = async (batch) => batch.map((s) => ({ score: -s.filter((x) => x.mbps === 0).reduce((t, x) => t + x.ms, 0) / 1000, omniscientScore: 0 }));

describe('the worst-trace search', () => {
  it('spends exactly its budget, and never forgets its worst', async () => {
    const seen: number[] = [];
    const gaps: number[] = [];
    const r = await searchWorstTrace({
      seed: 3,
      budget: 50,
      totalMs: 10_000,
      evaluate: async (b) => (seen.push(b.length), outageHater(b)),
      progress: (w) => gaps.push(gapOf(w)),
    });
    expect(r.runs).toBe(50);
    expect(seen).toEqual([POPULATION, POPULATION, POPULATION, 50 - 3 * POPULATION]);
    expect(gaps).toEqual([...gaps].sort((a, b) => a - b));
  });

  it('climbs: after 400 runs the worst trace is mostly outage', async () => {
    const first: number[] = [];
    const r = await searchWorstTrace({ seed: 1, budget: 400, totalMs: 10_000, evaluate: outageHater, progress: (w) => first.push(gapOf(w)) });
    expect(gapOf(r.worst)).toBeGreaterThan(first[0]);
    expect(gapOf(r.worst)).toBeGreaterThan(7);
  });

  it('finds the same trace for the same seed, however its batches are run', async () => {
    const f = flow('aimd');
    const inOrder: Evaluate = async (b) => b.map((s) => scoreSegments(s, f, 1));
    const reversed: Evaluate = async (b) =>
      b
        .map((s, i) => [s, i] as const)
        .reverse()
        .map(([s, i]) => [scoreSegments(s, f, 1), i] as const)
        .sort((x, y) => x[1] - y[1])
        .map(([r]) => r);
    const one = await searchWorstTrace({ seed: 5, budget: 24, totalMs: 5000, evaluate: inOrder });
    const two = await searchWorstTrace({ seed: 5, budget: 24, totalMs: 5000, evaluate: reversed });
    expect(two.worst).toEqual(one.worst);
    const other = await searchWorstTrace({ seed: 6, budget: 24, totalMs: 5000, evaluate: inOrder });
    expect(other.worst.segments).not.toEqual(one.worst.segments);
  });

  it('scores a steady trace as the contest does: the omniscient sender waits at most a ms', () => {
    // 12.032 Mbit/s for 5 s: one opportunity a ms, the ideal sender's delay95 1 ms
    const steady: Segment[] = [{ ms: 5000, mbps: 12.032 }];
    const r = scoreSegments(steady, flow('fixed', { w: 2 }), 1);
    expect(r.omniscientScore).toBeCloseTo(Math.log(12.032 / 1), 2);
    expect(r.score).toBeLessThan(r.omniscientScore);
  });
});
