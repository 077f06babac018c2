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

  it('doubles its velocity once the window has moved the same way for three rounds, and starts again from 1 when it turns', () => {
    // With no sends recorded every ACK ends a round. Five ACKs at RTT 100 end slow start at w = 15; from
    // then on ACKs 100 ms apart each see only their own RTT in the last srtt/2.
    const c = make('copa');
    for (let i = 0; i < 5; i++) c.onAck(ack(i, i, 100 + i));
    let w = 15;
    const step = (v: number, sign: number) => (w = Math.max(2, w + (sign * v) / (0.5 * w)));
    // RTT 200: queueing 100 ms, above the target rate: down, at velocities 1 (turn from slow start), 1, 1, 1,
    // then 2 and 4 once three rounds went down
    for (const [k, v] of [1, 1, 1, 1, 2, 4].entries()) {
      c.onAck(ack(5 + k, 800 + 100 * k, 1000 + 100 * k));
      expect(c.windowSize(), `down ${k}`).toBeCloseTo(step(v, -1), 12);
    }
    // RTT 100 again: no queueing, below the target: up at the velocity reached (8), then back to 1
    c.onAck(ack(11, 1500, 1600));
    expect(c.windowSize()).toBeCloseTo(step(8, 1), 12);
    c.onAck(ack(12, 1600, 1700));
    expect(c.windowSize()).toBeCloseTo(step(1, 1), 12);
    expect(c.estimates()).toMatchObject({ rttMin: 100, pacingRate: (2 * w * 1000) / 100 });
  });

  it('a timeout drops the window to 2 and the velocity to 1, and backs the RTO off', () => {
    const c = make('copa');
    for (let i = 0; i < 5; i++) c.onAck(ack(i, i, 100 + i));
    const rto = c.timeoutMs();
    c.onTimeout(2000);
    expect(c.windowSize()).toBe(2);
    expect(c.timeoutMs()).toBe(2 * rto);
  });
});
