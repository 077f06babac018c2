import { describe, expect, it } from 'vitest';
import { bestBy, frontier, sweepValues } from '../../shared/scenarios/sweep.ts';

const pt = (throughputMbps: number, delay95: number) => ({ throughputMbps, delay95, power: throughputMbps / (delay95 / 1000), score: Math.log(throughputMbps / delay95) });

describe('sweeps', () => {
  it('reads multiplicative and additive ranges and lists, checked against the schema', () => {
    expect(sweepValues('fixed', 'w', '2..512*2')).toEqual([2, 4, 8, 16, 32, 64, 128, 256, 512]);
    expect(sweepValues('bdp', 'gain', '1..2+0.25')).toEqual([1, 1.25, 1.5, 1.75, 2]);
    expect(sweepValues('aimd', 'a', '0.5, 1,2')).toEqual([0.5, 1, 2]);
    expect(sweepValues('fixed', 'w', '2..5000*2')).toEqual({ error: 'w must be a whole number from 1 to 1000 packets (got "1024")' });
    expect(sweepValues('fixed', 'w', '2..8*1')).toMatchObject({ error: expect.stringMatching(/never reaches its end/) });
    expect(sweepValues('fixed', 'zz', '1,2')).toEqual({ error: 'fixed has no parameter "zz"' });
    expect(sweepValues('aimd', 'decrease', '1,2')).toEqual({ error: 'decrease is a choice, not a number to sweep' });
    expect(sweepValues('fixed', 'w', 'lots')).toMatchObject({ error: expect.stringMatching(/neither/) });
  });

  it('refuses fractions of a whole-number parameter, and counts a range too long before making it', () => {
    expect(sweepValues('fixed', 'w', '1..10+0.5')).toEqual({ error: 'w must be a whole number from 1 to 1000 packets (got "1.5")' });
    // (100000 − 1) / 1 + 1 values, and (1000 − 1) / 0.001 + 1
    expect(sweepValues('fixed', 'w', '1..100000+1')).toEqual({ error: 'a sweep takes 1 to 200 values (got 100000)' });
    expect(sweepValues('bdp', 'gain', '1..1000+0.001')).toEqual({ error: 'a sweep takes 1 to 200 values (got 999001)' });
    // 1, 2, 4 … 2^199: 200 values by doubling are allowed, 201 are not
    expect(sweepValues('bdp', 'gain', `1..${2 ** 200}*2`)).toEqual({ error: 'a sweep takes 1 to 200 values (got 201)' });
    expect(sweepValues('fixed', 'w', '1..200+1')).toHaveLength(200);
  });

  it('the frontier keeps the points nothing beats on both axes', () => {
    const a = pt(1, 50);
    const b = pt(3, 100);
    const c = pt(2, 120); // beaten by b
    const d = pt(5, 400);
    const e = pt(4, 500); // beaten by d
    expect(frontier([e, c, d, a, b])).toEqual([a, b, d]);
  });

  it('picks the best point by power and by score', () => {
    const points = [pt(1, 50), pt(3, 100), pt(5, 400)];
    expect(bestBy(points, 'power')).toBe(points[1]); // 30 vs 20 vs 12.5
    expect(bestBy(points, 'score')).toBe(points[1]);
    expect(bestBy([], 'score')).toBeNull();
  });
});
