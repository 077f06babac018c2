import { describe, expect, it } from 'vitest';
import { Rng } from '../../shared/sim/rng.ts';

const draws = (r: Rng, n: number) => Array.from({ length: n }, () => r.next());

describe('Rng', () => {
  it('repeats exactly for the same seed and name', () => {
    expect(draws(new Rng(7, 'x'), 20)).toEqual(draws(new Rng(7, 'x'), 20));
  });

  it('differs across seeds and across streams', () => {
    const a = draws(new Rng(7, 'x'), 20);
    expect(draws(new Rng(8, 'x'), 20)).not.toEqual(a);
    expect(draws(new Rng(7).stream('x'), 20)).toEqual(a);
    expect(draws(new Rng(7).stream('y'), 20)).not.toEqual(a);
  });

  it('is uniform on [0, 1): mean, spread and buckets', () => {
    const xs = draws(new Rng(1, 'u'), 200_000);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(mean).toBeCloseTo(0.5, 2);
    const buckets = new Array(10).fill(0);
    for (const x of xs) buckets[Math.floor(x * 10)]++;
    for (const b of buckets) expect(Math.abs(b - 20_000)).toBeLessThan(600);
  });

  it('chance(p) hits with probability p', () => {
    const r = new Rng(3, 'c');
    let hits = 0;
    for (let i = 0; i < 100_000; i++) if (r.chance(0.11)) hits++;
    expect(hits / 100_000).toBeCloseTo(0.11, 2);
    expect(new Rng(3).chance(0)).toBe(false);
  });
});
