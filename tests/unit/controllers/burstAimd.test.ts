import { describe, expect, it } from 'vitest';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

describe('burst AIMD', () => {
  it('grows by 1/burst per reply and halves on a loss', () => {
    const c = make('burst-aimd');
    expect(c.burstSize()).toBe(4);
    let b = 4;
    for (let i = 0; i < 4; i++) {
      c.onAck(ack(i, 0, 50));
      b += 1 / b;
    }
    expect(c.windowSize()).toBeCloseTo(b, 12);
    expect(c.burstSize()).toBe(4);
    c.onLoss(100);
    expect(c.windowSize()).toBeCloseTo(b / 2, 12);
    expect(c.burstSize()).toBe(2);
  });

  it('adds 2 only when the whole burst was answered, in the per-round variant', () => {
    const c = make('burst-aimd', { increase: 'per-round' });
    expect(c.burstSize()).toBe(4);
    for (let i = 0; i < 3; i++) c.onAck(ack(i, 0, 50));
    expect(c.windowSize()).toBe(4);
    c.onAck(ack(3, 0, 50));
    expect(c.windowSize()).toBe(6);
    expect(c.burstSize()).toBe(6);
  });

  it('waits k × the smoothed RTT for a reply', () => {
    const c = make('burst-aimd');
    expect(c.timeoutMs()).toBe(200); // 2 × the 100 ms assumed before any reply
    c.onAck(ack(0, 0, 50));
    expect(c.timeoutMs()).toBe(100);
    c.onAck(ack(1, 0, 90));
    expect(c.timeoutMs()).toBeCloseTo(2 * (0.875 * 50 + 0.125 * 90), 12);
  });
});
