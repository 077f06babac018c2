import { describe, expect, it } from 'vitest';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

describe('BDP estimator', () => {
  it('averages per-interval ACK rates and sets w = avg × RTTmin × gain', () => {
    const c = make('bdp');
    expect(c.windowSize()).toBe(10);
    for (const t of [100, 105, 110, 120]) c.onAck(ack(0, t - 40, t)); // 4 ACKs in [100, 125)
    expect(c.windowSize()).toBe(10);
    c.onAck(ack(0, 85, 125)); // closes the interval: 4/25 per ms
    expect(c.windowSize()).toBeCloseTo(0.16 * 40 * 1.5, 12);
    c.onAck(ack(0, 140, 180)); // closes [125,150) with 1 ACK and [150,175) with none
    expect(c.windowSize()).toBeCloseTo(((0.16 + 0.04 + 0) / 3) * 40 * 1.5, 12);
  });

  it('keeps only the last `samples` intervals', () => {
    const c = make('bdp', { samples: 2, gain: 1 });
    for (let t = 0; t < 25; t += 5) c.onAck(ack(0, t - 10, t)); // 5 in the first interval
    c.onAck(ack(0, 15, 25)); // 0.2/ms
    c.onAck(ack(0, 65, 75)); // [25,50): 1 → 0.04, [50,75): 0 → avg of last two = 0.02
    expect(c.windowSize()).toBe(1); // 0.02 × 10 = 0.2, floored at one packet
    expect(c.estimates().bandwidth).toBeCloseTo(20, 9);
  });
});
