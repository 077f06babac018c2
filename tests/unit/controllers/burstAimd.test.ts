import { describe, expect, it } from 'vitest';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

describe('burst AIMD', () => {
  it('adds 2 only when the whole burst came back, halves when a reply is missing', () => {
    const c = make('burst-aimd');
    expect(c.burstSize()).toBe(4);
    for (let i = 0; i < 3; i++) c.onAck(ack(i, 0, 50));
    expect(c.windowSize()).toBe(4);
    c.onAck(ack(3, 0, 50));
    expect(c.windowSize()).toBe(6);
    expect(c.burstSize()).toBe(6);
    for (let i = 0; i < 5; i++) c.onAck(ack(i, 0, 50));
    c.onLoss(300, 5);
    expect(c.windowSize()).toBe(3);
    expect(c.burstSize()).toBe(3);
  });

  it('grows by 1/burst per reply in the per-reply variant', () => {
    const c = make('burst-aimd', { increase: 'per-reply' });
    expect(c.burstSize()).toBe(4);
    let b = 4;
    for (let i = 0; i < 4; i++) {
      c.onAck(ack(i, 0, 50));
      b += 1 / b;
    }
    expect(c.windowSize()).toBeCloseTo(b, 12);
    expect(c.burstSize()).toBe(4);
  });

  it('waits k × the smoothed RTT, never less than the floor', () => {
    const c = make('burst-aimd');
    expect(c.timeoutMs()).toBe(200); // 2 × the 100 ms assumed before any reply
    c.onAck(ack(0, 0, 50));
    expect(c.timeoutMs()).toBe(100);
    c.onAck(ack(1, 0, 90));
    expect(c.timeoutMs()).toBeCloseTo(2 * (0.875 * 50 + 0.125 * 90), 12);
    const fast = make('burst-aimd', { floor: 10 });
    fast.onAck(ack(0, 0, 1)); // loopback: 2 × 1 ms
    expect(fast.timeoutMs()).toBe(10);
  });
});
