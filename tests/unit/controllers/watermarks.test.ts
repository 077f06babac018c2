import { describe, expect, it } from 'vitest';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

describe('watermarks', () => {
  it('grows below the low mark, holds between, shrinks above the high mark', () => {
    const c = make('watermarks');
    c.onAck(ack(0, 0, 40));
    c.onAck(ack(1, 0, 40));
    expect(c.windowSize()).toBe(3);
    c.onAck(ack(2, 0, 100));
    expect(c.windowSize()).toBe(3);
    c.onAck(ack(3, 0, 200));
    expect(c.windowSize()).toBe(2);
    c.onAck(ack(4, 0, 200));
    c.onAck(ack(5, 0, 200));
    expect(c.windowSize()).toBe(1);
  });

  it('the timer changes nothing (the exercise gives it no rule)', () => {
    const c = make('watermarks', { low: 20, high: 30 });
    for (let i = 0; i < 3; i++) c.onAck(ack(i, 0, 10));
    c.onTimeout(1000);
    expect(c.windowSize()).toBe(4);
  });

  it('holds at either mark exactly: only an RTT under 50 ms grows it and only one over 150 ms shrinks it', () => {
    const c = make('watermarks');
    c.onAck(ack(0, 1000, 1049)); // 49 ms: under the low mark
    expect(c.windowSize()).toBe(2);
    c.onAck(ack(1, 1000, 1050)); // 50 ms: at the low mark, held
    expect(c.windowSize()).toBe(2);
    c.onAck(ack(2, 1000, 1150)); // 150 ms: at the high mark, held
    expect(c.windowSize()).toBe(2);
    c.onAck(ack(3, 1000, 1151)); // 151 ms: over it
    expect(c.windowSize()).toBe(1);
  });
});
