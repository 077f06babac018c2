import { describe, expect, it } from 'vitest';
import { delayDomain } from '../../../web/charts/PlaneChart.tsx';

describe('the delay axis of the throughput–delay plane', () => {
  it('runs from the points less 1.3×, to the points plus 1.3×, its ends at 1, 2 or 5 × a power of ten', () => {
    // 33 / 1.3 = 25.4 → 20; 370 × 1.3 = 481 → 500: not 1 ms to 1 s, where these points took a third of the axis
    expect(delayDomain([33, 128, 324, 370])).toEqual([500, 20]);
    // 5 / 1.3 = 3.85 → 2; 2000 × 1.3 = 2600 → 5000
    expect(delayDomain([5, 2000])).toEqual([5000, 2]);
  });

  it('spans at least a factor of ten about the middle of points close together', () => {
    // 76.9 to 130 is 1.69×: each end moves √(10 / 1.69) = 2.43× out, to 31.6 → 20 and 316 → 500
    expect(delayDomain([100])).toEqual([500, 20]);
    // 15.4 to 39 (2.54×) moves 1.98× out: 7.77 → 5 and 77.3 → 100
    expect(delayDomain([20, 30])).toEqual([100, 5]);
  });

  it('starts at 1 ms, and runs 10 to 100 ms with no points', () => {
    expect(delayDomain([1.2])).toEqual([10, 1]);
    expect(delayDomain([])).toEqual([100, 10]);
  });
});
