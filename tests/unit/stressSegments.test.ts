import { describe, expect, it } from 'vitest';
import { Rng } from '../../shared/sim/rng.ts';
import {
  crossover,
  fitLengths,
  formatSegments,
  MAX_MBPS,
  MAX_SEGMENTS,
  MIN_MBPS,
  MIN_SEGMENT_MS,
  mutate,
  parseSegments,
  randomSegments,
  type Segment,
  segmentsTrace,
} from '../../shared/stress/segments.ts';

const times = (segments: Segment[]) => Array.from(segmentsTrace(segments).times);

describe('segment traces', () => {
  it('give one 1504-byte opportunity per ms at 12.032 Mbit/s, one per 2 ms at half that', () => {
    expect(times([{ ms: 3, mbps: 12.032 }])).toEqual([1, 2, 3]);
    expect(times([{ ms: 4, mbps: 6.016 }])).toEqual([2, 4]);
    // bytes carry over a rate change: 752 left after 1 ms at 6.016, plus 1504 the next ms
    expect(
      times([
        { ms: 1, mbps: 6.016 },
        { ms: 2, mbps: 12.032 },
      ]),
    ).toEqual([2, 3]);
  });

  it('last as long as their segments, an outage at the end included', () => {
    expect(
      times([
        { ms: 2, mbps: 12.032 },
        { ms: 3, mbps: 0 },
      ]),
    ).toEqual([1, 2, 5]);
    expect(times([{ ms: 5, mbps: 0 }])).toEqual([5]);
  });

  it('fit lengths to a total, none under the minimum', () => {
    expect(
      fitLengths(
        [
          { ms: 1, mbps: 1 },
          { ms: 3, mbps: 2 },
        ],
        1000,
      ),
    ).toEqual([
      { ms: 300, mbps: 1 },
      { ms: 700, mbps: 2 },
    ]);
  });

  it('read back as written, and refuse what is not one', () => {
    const s = [
      { ms: 2000, mbps: 12.5 },
      { ms: 500, mbps: 0 },
    ];
    expect(formatSegments(s)).toBe('2000@12.5,500@0');
    expect(parseSegments('2000@12.5,500@0')).toEqual(s);
    for (const bad of ['', '2000@', '0@5', '10@41', '10@1.234', '10@-1', 'x@1', `${'1@1,'.repeat(70)}1@1`]) expect(parseSegments(bad), bad).toBeNull();
  });

  it('keep their length, bounds and count through mutation and crossover', () => {
    const total = 30_000;
    const rng = new Rng(7, 'test');
    let a = randomSegments(rng, total);
    let b = randomSegments(rng, total);
    for (let i = 0; i < 2000; i++) {
      const c = i % 2 ? mutate(a, rng, total) : crossover(a, b, rng, total);
      expect(c.reduce((sum, s) => sum + s.ms, 0)).toBe(total);
      expect(c.length).toBeLessThanOrEqual(MAX_SEGMENTS);
      for (const s of c) {
        expect(s.ms).toBeGreaterThanOrEqual(MIN_SEGMENT_MS);
        expect(s.mbps === 0 || (s.mbps >= MIN_MBPS && s.mbps <= MAX_MBPS)).toBe(true);
        expect(parseSegments(formatSegments([s]))).toEqual([s]);
      }
      [a, b] = [c, a];
    }
  });
});
