import { describe, expect, it } from 'vitest';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

describe('delay trigger', () => {
  it('adds below the threshold and subtracts above it (additive), never below 1', () => {
    const c = make('delay-trigger');
    c.onAck(ack(0, 0, 50));
    c.onAck(ack(1, 0, 50));
    expect(c.windowSize()).toBe(3);
    c.onAck(ack(2, 0, 150));
    expect(c.windowSize()).toBe(2);
    c.onAck(ack(3, 0, 150));
    c.onAck(ack(4, 0, 150));
    expect(c.windowSize()).toBe(1);
  });

  it('uses the configured increase', () => {
    const c = make('delay-trigger', { increase: 0.1 });
    c.onAck(ack(0, 0, 50));
    expect(c.windowSize()).toBeCloseTo(1.1, 12);
  });

  it('multiplies by β once per window in the multiplicative variant', () => {
    const c = make('delay-trigger', { variant: 'multiplicative' });
    for (let i = 0; i < 3; i++) c.onAck(ack(i, 0, 50)); // 4
    c.onAck(ack(3, 10, 160));
    expect(c.windowSize()).toBe(2);
    c.onAck(ack(4, 20, 170)); // sent before the cut
    expect(c.windowSize()).toBe(2);
    c.onAck(ack(5, 200, 350));
    expect(c.windowSize()).toBe(1);
  });
});
