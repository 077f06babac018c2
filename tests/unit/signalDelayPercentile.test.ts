import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { percentile } from '../../shared/metrics/percentile.ts';
import { signalDelayPercentile, signalDelays } from '../../shared/metrics/signalDelay.ts';

/** Packets through a bottleneck: arrival times and each one's wait (whole ms, or any), in arrival order or shuffled. */
const packets = fc
  .record({
    gaps: fc.array(fc.oneof(fc.integer({ min: 0, max: 30 }), fc.double({ min: 0, max: 30, noNaN: true })), { minLength: 1, maxLength: 60 }),
    waits: fc.array(fc.oneof(fc.integer({ min: 0, max: 200 }), fc.double({ min: 0, max: 200, noNaN: true })), { minLength: 60, maxLength: 60 }),
    start: fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.double({ min: 0, max: 5000, noNaN: true })),
    shuffle: fc.option(fc.integer({ min: 1, max: 1000 })),
  })
  .map(({ gaps, waits, start, shuffle }) => {
    let t = start;
    const arrivals = gaps.map((g) => (t += g));
    // a FIFO's departures are whole ms on a trace link: each one's after its arrival and the one before it
    let last = -Infinity;
    const departures = arrivals.map((a, k) => (last = Math.max(last, a + waits[k])));
    if (shuffle !== null) {
      const order = arrivals.map((_, k) => k).sort((x, y) => ((x * shuffle) % 61) - ((y * shuffle) % 61));
      return { arrivals: order.map((k) => arrivals[k]), departures: order.map((k) => departures[k]) };
    }
    return { arrivals, departures };
  });

describe('the signal delay percentile, counted from the packets', () => {
  it('takes a hand-worked case as the listed delays do', () => {
    // arrivals at 0, 2.5 and 3 ms leaving at 1, 6 and 6: ms 0 waits for the first (1), ms 1 and 2 for the
    // second (5, 4), ms 3 for the third (3); sorted 1 3 4 5, the 95th percentile is the one at floor(3.8)
    expect(Array.from(signalDelays([0, 2.5, 3], [1, 6, 6]))).toEqual([1, 5, 4, 3]);
    expect(signalDelayPercentile([0, 2.5, 3], [1, 6, 6])).toBe(5);
    expect(signalDelayPercentile([0, 2.5, 3], [1, 6, 6], 0.5)).toBe(4);
    expect(signalDelayPercentile([0, 2.5, 3], [1, 6, 6], 0)).toBe(1);
    expect(signalDelayPercentile([], [])).toBeNaN();
  });

  it('is the listed delays’ percentile for packets in any order, whole or not, at every p', () => {
    fc.assert(
      fc.property(packets, fc.constantFrom(0, 0.25, 0.5, 0.95, 0.99, 1), ({ arrivals, departures }, p) => {
        expect(signalDelayPercentile(arrivals, departures, p)).toBe(percentile(signalDelays(arrivals, departures), p));
      }),
      { numRuns: 3000, seed: 829 },
    );
  });

  it('is the same for a wide range of delays, which no histogram is made for', () => {
    const arrivals = [0, 1, 2, 3];
    const departures = [1, 1e9, 1e9, 1e9 + 5];
    expect(signalDelayPercentile(arrivals, departures)).toBe(percentile(signalDelays(arrivals, departures)));
  });

  it('is the same for delays past the histogram’s first size (a long outage), at every p', () => {
    // a packet waits 20 s: ms 1 and 2 wait for it (delays 20000, 19999), ms 3 for the next (20002)
    const arrivals = [0, 2.5, 3, 3.5];
    const departures = [1, 20_001, 20_005, 20_006];
    expect(Array.from(signalDelays(arrivals, departures))).toEqual([1, 20_000, 19_999, 20_002]);
    for (const p of [0, 0.25, 0.5, 0.95]) expect(signalDelayPercentile(arrivals, departures, p)).toBe(percentile(signalDelays(arrivals, departures), p));
    expect(signalDelayPercentile(arrivals, departures)).toBe(20_002);
  });

  it('starts each call from an empty histogram, whatever the call before counted', () => {
    // one packet waiting 10 ms marks bins 10 and 11; packets waiting 20 ms after it must not see those marks
    const cases: [number[], number[]][] = [
      [[0], [10]],
      [
        [0, 1, 2, 3],
        [20, 21, 22, 23],
      ],
      [
        [0, 5.5],
        [30, 31],
      ],
      [
        [0, 1, 2, 3],
        [20, 21, 22, 23],
      ],
    ];
    for (const [arrivals, departures] of cases) {
      for (const p of [0, 0.5, 0.95]) expect(signalDelayPercentile(arrivals, departures, p)).toBe(percentile(signalDelays(arrivals, departures), p));
    }
  });

  it('lists the delays when a departure comes before its arrival’s millisecond or a time is negative', () => {
    expect(signalDelayPercentile([0, 5], [1, 4])).toBe(percentile(signalDelays([0, 5], [1, 4])));
    expect(signalDelayPercentile([-2, 1], [3, 4], 0.5)).toBe(percentile(signalDelays([-2, 1], [3, 4]), 0.5));
  });
});
