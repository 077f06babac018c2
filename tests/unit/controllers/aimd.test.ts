import { describe, expect, it } from 'vitest';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

describe('AIMD', () => {
  it('adds a/w per ACK and multiplies by b when the timer fires', () => {
    const c = make('aimd');
    expect(c.windowSize()).toBe(1);
    c.onAck(ack(0, 0, 50));
    expect(c.windowSize()).toBe(2);
    c.onAck(ack(1, 10, 60));
    expect(c.windowSize()).toBe(2.5);
    c.onAck(ack(2, 20, 70));
    expect(c.windowSize()).toBeCloseTo(2.9, 12);
    c.onTimeout(1070);
    expect(c.windowSize()).toBeCloseTo(1.45, 12);
    expect(c.timeoutMs()).toBe(1000);
  });

  it('adds a/w² per ACK in the slower variant', () => {
    const c = make('aimd', { increase: 'a/w2' });
    c.onAck(ack(0, 0, 50));
    c.onAck(ack(1, 0, 50));
    c.onAck(ack(2, 0, 50));
    expect(c.windowSize()).toBeCloseTo(2.25 + 1 / 2.25 ** 2, 12);
  });

  it('decreases to √w or w^¼ in the root variants', () => {
    const s = make('aimd', { a: 3, decrease: 'sqrt' });
    s.onAck(ack(0, 0, 50)); // 1 + 3/1 = 4
    s.onTimeout(1000);
    expect(s.windowSize()).toBe(2);
    const q = make('aimd', { a: 10, decrease: 'quartic' });
    q.onAck(ack(0, 0, 50)); // 11
    q.onAck(ack(1, 0, 50)); // 11 + 10/11
    q.onTimeout(1000);
    expect(q.windowSize()).toBeCloseTo(Math.pow(11 + 10 / 11, 0.25), 12);
  });

  it('with timeout=100 a late ACK is only an ACK: the timer alone means loss', () => {
    const c = make('aimd', { timeout: 100 });
    c.onAck(ack(0, 0, 50));
    c.onAck(ack(1, 10, 60));
    c.onAck(ack(2, 20, 70)); // 2.9
    c.onAck(ack(3, 100, 250)); // RTT 150 > 100: still +1/w
    expect(c.windowSize()).toBeCloseTo(2.9 + 1 / 2.9, 12);
    expect(c.timeoutMs()).toBe(100);
  });

  it('ignores inferred losses unless told to detect them; then cuts once per window', () => {
    const quiet = make('aimd');
    for (let s = 0; s < 4; s++) quiet.onSend(s, 0);
    quiet.onAck(ack(0, 0, 50)); // 2
    quiet.onLoss(60, 1);
    expect(quiet.windowSize()).toBe(2);

    const c = make('aimd', { loss: 'detect' });
    for (let s = 0; s < 4; s++) c.onSend(s, 0);
    c.onAck(ack(0, 0, 50)); // 2
    c.onAck(ack(1, 0, 50)); // 2.5
    c.onLoss(60, 2);
    expect(c.windowSize()).toBe(1.25);
    c.onLoss(61, 3); // sent before the cut: the same episode
    expect(c.windowSize()).toBe(1.25);
    c.onSend(4, 70);
    c.onLoss(200, 4); // sent after it: a new episode
    expect(c.windowSize()).toBe(1);
  });
});
