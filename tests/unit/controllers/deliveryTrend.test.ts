import { describe, expect, it } from 'vitest';
import { make } from './helpers.ts';

const at = (now: number, sentAt: number, receivedAt: number) => ({ seq: 0, sentAt, receivedAt, now, cumulative: 1, inFlight: 0 });

describe('delivery-time trend', () => {
  it('adds 1/w² per ACK and compares delivery times an interval apart', () => {
    const c = make('delivery-trend');
    let w = 1;
    c.onAck(at(100, 50, 80)); // delivery 30, the first reference
    w += 1 / (w * w);
    expect(c.windowSize()).toBe(w);
    c.onAck(at(150, 100, 170)); // within the interval: no comparison
    w += 1 / (w * w);
    expect(c.windowSize()).toBe(w);
    c.onAck(at(300, 200, 270)); // delivery 70 ≥ 2 × 30: slower, +1
    w += 1 / (w * w);
    w += 1;
    expect(c.windowSize()).toBeCloseTo(w, 12);
    c.onAck(at(500, 400, 430)); // delivery 30 ≤ 70 / 2: faster, −1
    w += 1 / (w * w);
    w -= 1;
    expect(c.windowSize()).toBeCloseTo(w, 12);
    c.onAck(at(700, 600, 640)); // 40: neither
    w += 1 / (w * w);
    expect(c.windowSize()).toBeCloseTo(w, 12);
    c.onTimeout(2000);
    expect(c.windowSize()).toBeCloseTo(Math.max(1, Math.pow(w, 0.25)), 12);
  });
});
