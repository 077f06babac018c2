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

  it('holds at diff = alpha and at diff = beta exactly, judges a round by its smallest RTT, and a timeout sets ssthresh to half the window', () => {
    const c = make('vegas');
    let seq = 0;
    // one round per ACK: send the next packet, then its ACK (sent `ms` before it comes)
    const round = (ms: number) => {
      c.onSend(seq, 0);
      c.onAck(ack(seq, 1000 * (seq + 1) - ms, 1000 * (seq + 1)));
      seq++;
    };
    // slow start to 5, out of it at 5 × 100/200 + 1 = 3.5 (diff 2.5 > gamma), then diff 1.75 < alpha: 4.5
    for (const ms of [100, 100, 100, 100, 200, 200]) round(ms);
    expect([c.windowSize(), c.estimates().ssthresh]).toEqual([4.5, 3.5]);
    round(180); // diff = 4.5 × 80 / 180 = 2 = alpha: held
    expect(c.windowSize()).toBe(4.5);
    round(900); // diff = 4.5 × 800 / 900 = 4 = beta: held
    expect(c.windowSize()).toBe(4.5);
    // a round of two ACKs, RTTs 100 and 900: judged by 100, diff 0: +1
    c.onSend(seq, 0);
    c.onSend(seq + 1, 0);
    c.onAck(ack(seq, 20_000 - 100, 20_000)); // ends the round before
    expect(c.windowSize()).toBe(5.5);
    c.onAck(ack(seq + 1, 21_000 - 100, 21_000));
    c.onSend(seq + 2, 0);
    c.onAck(ack(seq + 2, 22_000 - 900, 22_000));
    expect(c.windowSize()).toBe(6.5);
    c.onTimeout(30_000);
    expect([c.windowSize(), c.estimates().ssthresh]).toEqual([2, 3.25]);
  });
});
