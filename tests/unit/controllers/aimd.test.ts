import { describe, expect, it } from 'vitest';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

describe('AIMD', () => {
  it('adds a/w per ACK and multiplies by b on timeout', () => {
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

  it('counts an ACK later than the timeout as a timeout, once per window', () => {
    const c = make('aimd', { timeout: 100 });
    c.onAck(ack(0, 0, 50));
    c.onAck(ack(1, 10, 60));
    c.onAck(ack(2, 20, 70)); // 2.9
    c.onAck(ack(3, 100, 250)); // RTT 150 > 100
    expect(c.windowSize()).toBeCloseTo(1.45, 12);
    c.onAck(ack(4, 120, 260)); // sent before the cut: no second cut
    expect(c.windowSize()).toBeCloseTo(1.45, 12);
    c.onAck(ack(5, 300, 450)); // sent after it: cut again, floored at one packet
    expect(c.windowSize()).toBe(1);
  });
});
