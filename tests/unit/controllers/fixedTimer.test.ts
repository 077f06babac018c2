import { describe, expect, it } from 'vitest';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

describe('Fixed timer', () => {
  it('grows by 1/w per ACK and halves once per window of packets on a loss', () => {
    const c = make('fixed-timer');
    expect(c.windowSize()).toBe(8);
    c.onAck(ack(0, 0, 50));
    expect(c.windowSize()).toBe(8.125);
    for (let seq = 0; seq < 10; seq++) c.onSend(seq, 60);
    c.onLoss(70, 3);
    expect(c.windowSize()).toBe(4.0625);
    c.onLoss(71, 5); // sent before the first loss was seen: the same episode
    expect(c.windowSize()).toBe(4.0625);
    c.onSend(10, 80);
    c.onLoss(90, 10);
    expect(c.windowSize()).toBe(2.03125);
  });

  it('halves when the timer fires, not below one packet, and keeps its timer: no backoff', () => {
    const c = make('fixed-timer', { w: 3, timeout: 250 });
    expect(c.timeoutMs()).toBe(250);
    c.onTimeout(250);
    expect(c.windowSize()).toBe(1.5);
    c.onTimeout(500);
    c.onTimeout(750);
    expect(c.windowSize()).toBe(1);
    expect(c.timeoutMs()).toBe(250);
  });
});
