import { describe, expect, it } from 'vitest';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

describe('rate-based', () => {
  it('sets w = ACKs per ms over the last 150 ms × RTTmin × k + c', () => {
    const c = make('rate-based');
    c.onAck(ack(0, 60, 100));
    expect(c.windowSize()).toBeCloseTo((1 / 150) * 40 * 2 + 1, 12);
    c.onAck(ack(1, 70, 110));
    c.onAck(ack(2, 80, 120));
    expect(c.windowSize()).toBeCloseTo((3 / 150) * 40 * 2 + 1, 12);
    c.onAck(ack(3, 205, 255)); // the ACK at 100 leaves the span; RTTmin stays 40
    expect(c.windowSize()).toBeCloseTo((3 / 150) * 40 * 2 + 1, 12);
    c.onAck(ack(4, 240, 300)); // 110 and 120 leave
    expect(c.windowSize()).toBeCloseTo((2 / 150) * 40 * 2 + 1, 12);
    expect(c.estimates().rttMin).toBe(40);
  });

  it("the exercise's second setting k = 1.5, c = 0.5 is reachable", () => {
    const c = make('rate-based', { k: 1.5, c: 0.5 });
    c.onAck(ack(0, 60, 100));
    expect(c.windowSize()).toBeCloseTo((1 / 150) * 40 * 1.5 + 0.5, 12);
  });

  it('counts an ACK exactly one span old as gone, reports the rate in ACKs per second, and forgets old ACKs without changing the rate', () => {
    const c = make('rate-based');
    c.onAck(ack(0, 60, 100));
    c.onAck(ack(1, 200, 250)); // the ACK at 100 is exactly 150 ms old: out of the span
    expect(c.windowSize()).toBeCloseTo((1 / 150) * 40 * 2 + 1, 12);
    expect(c.estimates().bandwidth).toBeCloseTo((1 / 150) * 1000, 12);
    // 6,000 ACKs one per 0.1 ms: the list is cut well before it holds them all, and the last 150 ms keep 1,500
    const d = make('rate-based');
    for (let i = 0; i < 6000; i++) d.onAck(ack(i, i / 10 - 40, i / 10));
    expect(d.estimates().bandwidth).toBeCloseTo((1500 / 150) * 1000, 9);
    expect(d.windowSize()).toBeCloseTo((1500 / 150) * 40 * 2 + 1, 9);
  });
});
