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

describe('delivery-time trend comparisons', () => {
  it('per-packet: every ACK compares with the previous packet, strictly', () => {
    const c = make('delivery-trend', { compare: 'per-packet' });
    let w = 1;
    c.onAck(at(10, 0, 30)); // 30: the first reference
    w += 1 / (w * w);
    c.onAck(at(20, 0, 60)); // 60 = 2 × 30: not strictly slower
    w += 1 / (w * w);
    expect(c.windowSize()).toBeCloseTo(w, 12);
    c.onAck(at(30, 0, 121)); // 121 > 120: +1
    w += 1 / (w * w) + 1;
    expect(c.windowSize()).toBeCloseTo(w, 12);
    c.onAck(at(40, 0, 60)); // 60 < 60.5: −1
    w += 1 / (w * w);
    w -= 1;
    expect(c.windowSize()).toBeCloseTo(w, 12);
  });

  it('k-average: the mean of k deliveries against the mean of the k before', () => {
    const c = make('delivery-trend', { compare: 'k-average', k: 2 });
    let w = 1;
    for (const [now, d] of [
      [10, 10],
      [20, 30],
      [30, 50],
      [40, 50],
    ] as const) {
      c.onAck(at(now, 0, d));
      w += 1 / (w * w);
    }
    w += 1; // mean 50 > 2 × mean 20
    expect(c.windowSize()).toBeCloseTo(w, 12);
    expect(c.timeoutMs()).toBe(100);
  });
});
