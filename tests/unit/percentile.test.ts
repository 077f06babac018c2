import { describe, expect, it } from 'vitest';
import { percentile, percentileInPlace, select } from '../../shared/metrics/percentile.ts';
import { Rng } from '../../shared/sim/rng.ts';

/** mm-throughput-graph's percentile, by sorting: the element at floor(p · n) of the sorted samples. */
const bySorting = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

/** Samples of each kind the runs give: whole ms in a small range (counted), in a wide one, and fractions (selected). */
function samples(rng: Rng): Record<string, number[]> {
  // few samples are selected, many (past a thousand) counted when they are whole
  const n = rng.int(2) === 0 ? 1 + rng.int(300) : 1000 + rng.int(3000);
  const of = (draw: () => number) => Array.from({ length: n }, draw);
  return {
    'whole, small range': of(() => rng.int(40) - 5),
    'whole, from 0': of(() => rng.int(40)),
    'whole, past a thousand': of(() => rng.int(20_000)),
    'whole, wide range': of(() => rng.int(1e9)),
    fractions: of(() => rng.uniform(-50, 50)),
    'few values, many repeats': of(() => [0.5, 2.25, 7][rng.int(3)]),
  };
}

describe('percentile', () => {
  it('is the element at floor(p · n) of the sorted samples, for every kind of sample and p', () => {
    const rng = new Rng(11, 'percentile');
    for (let round = 0; round < 60; round++) {
      for (const [kind, xs] of Object.entries(samples(rng))) {
        for (const p of [0, 0.1, 0.5, 0.95, 0.99, 1]) {
          const want = bySorting(xs, p);
          expect(percentile(xs, p), `${kind}, n ${xs.length}, p ${p}`).toBe(want);
          expect(percentileInPlace(Float64Array.from(xs), p), `${kind} in place, n ${xs.length}, p ${p}`).toBe(want);
        }
      }
    }
  });

  it('takes small hand-worked cases as mm-throughput-graph does', () => {
    expect(percentile([5, 1, 4, 2, 3])).toBe(5); // floor(0.95 · 5) = 4: the largest
    expect(percentile(Array.from({ length: 20 }, (_, i) => i + 1))).toBe(20); // index 19
    expect(percentile(Array.from({ length: 21 }, (_, i) => i + 1))).toBe(20); // floor(19.95) = 19
    expect(percentile([5, 1, 4, 2, 3], 0.5)).toBe(3);
    expect(percentile([0.5, 0.25], 0.5)).toBe(0.5);
    expect(percentile([7])).toBe(7);
    expect(percentile([])).toBeNaN();
    expect(percentileInPlace(new Float64Array(0))).toBeNaN();
  });

  it('leaves its samples as they were', () => {
    const xs = [3.5, 1.5, 2.5, 0.5];
    percentile(xs, 0.5);
    expect(xs).toEqual([3.5, 1.5, 2.5, 0.5]);
  });

  it('select finds the k-th smallest for every k', () => {
    const rng = new Rng(3, 'select');
    const xs = Array.from({ length: 101 }, () => rng.uniform(0, 10));
    const sorted = [...xs].sort((a, b) => a - b);
    for (let k = 0; k < xs.length; k++) expect(select(Float64Array.from(xs), k)).toBe(sorted[k]);
  });
});
