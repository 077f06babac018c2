import { describe, expect, it } from 'vitest';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

describe('BDP estimator', () => {
  it('counts ACKs per interval and sets w = rate × RTTmin × gain over at least `samples` intervals', () => {
    const c = make('bdp', { gain: 1.5 });
    expect(c.windowSize()).toBe(10);
    [100, 105, 110, 120].forEach((t, i) => c.onAck(ack(i, t - 40, t))); // 4 ACKs in [100, 125)
    expect(c.windowSize()).toBe(10);
    c.onAck(ack(4, 85, 125)); // closes [100,125): 4 / 25 ms
    expect(c.windowSize()).toBeCloseTo(0.16 * 40 * 1.5, 12);
    // closes [125,150) (1 ACK) and [150,175) (none): 5 ACKs over the 75 ms seen so far
    c.onAck(ack(5, 140, 180));
    expect(c.windowSize()).toBeCloseTo((5 / 75) * 40 * 1.5, 12);
  });

  it('counts what the cumulative ACK says arrived: a lost ACK loses no count', () => {
    const c = make('bdp', { gain: 1.5 });
    c.onAck(ack(0, 60, 100));
    c.onAck(ack(3, 80, 120)); // the ACKs of 1 and 2 were lost
    c.onAck(ack(4, 85, 125)); // closes [100,125): 4 packets
    expect(c.windowSize()).toBeCloseTo(0.16 * 40 * 1.5, 12);
    c.onAck(ack(2, 90, 130)); // a late ACK below the cumulative adds nothing
    c.onAck(ack(5, 110, 150)); // closes [125,150): 1 packet (the ACK of 4 at 125)
    expect(c.windowSize()).toBeCloseTo((5 / 50) * 40 * 1.5, 12);
  });

  it('measures over one minimum RTT when that is longer than the samples: bursty ACKs do not collapse it', () => {
    const c = make('bdp', { gain: 1.5 });
    for (let i = 0; i < 10; i++) c.onAck(ack(i, 800, 1000)); // RTT 200: ten ACKs once per round trip
    for (let i = 10; i < 20; i++) c.onAck(ack(i, 1000, 1200));
    // eight 25 ms intervals span the 200 ms RTT: 10 ACKs per 200 ms × 200 ms × 1.5
    expect(c.windowSize()).toBeCloseTo(15, 12);
    expect(c.estimates().bandwidth).toBeCloseTo(50, 9);
  });

  it('never goes below minWindow; the timer re-estimates, waits min(RTTmin × gain, 100 ms) and backs off', () => {
    const c = make('bdp', { gain: 1.5, samples: 2 });
    expect(c.timeoutMs()).toBe(100); // no RTT yet
    c.onAck(ack(0, 0, 40));
    expect(c.timeoutMs()).toBe(60);
    c.onTimeout(500); // closes 19 intervals, the last two empty
    expect(c.windowSize()).toBe(4);
    expect(c.timeoutMs()).toBe(120);
    for (let i = 0; i < 5; i++) c.onTimeout(600 + i);
    expect(c.timeoutMs()).toBe(60 * 16);
    const low = make('bdp', { minWindow: 1 });
    low.onAck(ack(0, 0, 40));
    low.onTimeout(500);
    expect(low.windowSize()).toBe(1);
  });
});
