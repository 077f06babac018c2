import { describe, expect, it } from 'vitest';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

describe('Copa', () => {
  it('slow-starts while the rate is under 1/(δ·dq), then moves by v/(δ·w) per ACK and paces at 2w/RTTstanding', () => {
    const c = make('copa');
    expect(c.windowSize()).toBe(10);
    for (let i = 0; i < 5; i++) c.onAck(ack(i, i, 100 + i)); // RTT 100, no queueing: +1 each
    expect(c.windowSize()).toBe(15);
    expect(c.pacingRate()).toBeCloseTo((2 * 15 * 1000) / 100, 9);
    // RTT 200 alone in the last srtt/2: dq = 100, and 15 × 0.5 × 100 > 200: the rate is above target
    c.onAck(ack(5, 800, 1000));
    expect(c.windowSize()).toBeCloseTo(15 - 1 / (0.5 * 15), 12);
    expect(c.pacingRate()).toBeCloseTo((2 * (15 - 1 / 7.5) * 1000) / 200, 9);
  });

  it('a larger δ moves in smaller steps', () => {
    const c = make('copa', { delta: 1 });
    for (let i = 0; i < 5; i++) c.onAck(ack(i, i, 100 + i));
    c.onAck(ack(5, 800, 1000));
    expect(c.windowSize()).toBeCloseTo(15 - 1 / 15, 12);
  });
});
