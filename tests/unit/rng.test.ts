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

  // The published sfc32 (a, b and c from the seed's FNV-1a/murmur hash, the counter from 1, twelve outputs
  // discarded), worked out with an implementation of its own outside this code.
  it('draws the reference sfc32 sequence for a seed and a name', () => {
    const first = (r: Rng, n: number) => Array.from({ length: n }, () => r.nextUint32());
    expect(first(new Rng(1), 4)).toEqual([4114561220, 4261712543, 3977620038, 1871896061]);
    expect(first(new Rng(7, 'x'), 4)).toEqual([523830176, 963802854, 3661519951, 1740220423]);
    expect(first(new Rng(7, 'x').stream('y'), 2)).toEqual([3201524899, 2884137918]);
  });

  it('next, uniform and int scale one 32-bit draw each', () => {
    const r = new Rng(1);
    expect(r.next()).toBe(4114561220 / 2 ** 32);
    expect(r.uniform(10, 20)).toBe(10 + 10 * (4261712543 / 2 ** 32));
    expect(r.int(10)).toBe(9); // 0.926… × 10
    expect(r.int(10)).toBe(4); // 0.435… × 10
  });

  it('chance(0) draws nothing, so it shifts no later draw; chance(1) always hits', () => {
    const r = new Rng(1);
    expect(r.chance(0)).toBe(false);
    expect(r.nextUint32()).toBe(4114561220);
    expect(r.chance(1)).toBe(true);
    expect(r.nextUint32()).toBe(3977620038);
  });
});
