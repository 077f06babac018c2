import { describe, expect, it } from 'vitest';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

describe('TCP Vegas', () => {
  it('doubles every other round in slow start, leaves it when diff > gamma, then steers diff between alpha and beta', () => {
    const c = make('vegas');
    const rtt = (seq: number, ms: number, now = 1000 * (seq + 1)) => c.onAck(ack(seq, now - ms, now));
    expect(c.windowSize()).toBe(2);
    c.onSend(0, 0);
    rtt(0, 100); // +1, and the round ends: no growth next round
    expect(c.windowSize()).toBe(3);
    c.onSend(1, 0);
    c.onSend(2, 0);
    rtt(1, 100); // not a growing round; the round ends
    expect(c.windowSize()).toBe(3);
    rtt(2, 100);
    for (let s = 3; s <= 5; s++) c.onSend(s, 0);
    rtt(3, 100);
    expect(c.windowSize()).toBe(5);
    rtt(4, 200);
    rtt(5, 200);
    c.onSend(6, 0);
    rtt(6, 200); // diff = 5 × (200 − 100) / 200 = 2.5 > gamma: w = min(5, 5 × 100/200 + 1)
    expect(c.windowSize()).toBe(3.5);
    expect(c.estimates().ssthresh).toBe(3.5);
    c.onSend(7, 0);
    rtt(7, 100); // diff 0 < alpha: +1
    expect(c.windowSize()).toBe(4.5);
    c.onSend(8, 0);
    rtt(8, 250); // diff 2.7: between alpha and beta, hold
    expect(c.windowSize()).toBe(4.5);
    c.onSend(9, 0);
    rtt(9, 1000); // diff 4.05 > beta: −1
    expect(c.windowSize()).toBe(3.5);
  });

  it('halves on a detected loss once per window; a timeout restarts from two', () => {
    const c = make('vegas');
    for (let s = 0; s < 10; s++) c.onSend(s, 0);
    for (let s = 0; s < 6; s++) c.onAck(ack(s, 0, 100)); // slow start: 2 → 5 over growing rounds
    const w = c.windowSize();
    c.onLoss(200, 6);
    expect(c.windowSize()).toBe(Math.max(2, w / 2));
    c.onLoss(201, 7);
    expect(c.windowSize()).toBe(Math.max(2, w / 2));
    c.onTimeout(2000);
    expect(c.windowSize()).toBe(2);
  });
});
