import { describe, expect, it } from 'vitest';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

describe('delay trigger', () => {
  it('6.829 variant (defaults): +1 per ACK below the threshold, −1 per ACK above, never below 1', () => {
    const c = make('delay-trigger');
    c.onAck(ack(0, 0, 50));
    c.onAck(ack(1, 0, 50));
    expect(c.windowSize()).toBe(3);
    c.onAck(ack(2, 0, 150));
    expect(c.windowSize()).toBe(2);
    c.onAck(ack(3, 0, 100)); // at the threshold counts as above
    c.onAck(ack(4, 0, 150));
    expect(c.windowSize()).toBe(1);
    expect(c.timeoutMs()).toBe(1000);
    c.onTimeout(2000); // the timer only sends a packet: the window stays
    expect(c.windowSize()).toBe(1);
  });

  it('uses the configured increase and threshold', () => {
    const c = make('delay-trigger', { increase: 0.1, threshold: 50 });
    c.onAck(ack(0, 0, 49));
    expect(c.windowSize()).toBeCloseTo(1.1, 12);
    c.onAck(ack(1, 0, 50));
    expect(c.windowSize()).toBe(1);
  });

  it("CS244's threshold AIMD: +1/w per ACK below, ×½ on every ACK above", () => {
    const c = make('delay-trigger', { increaseMode: 'per-window', variant: 'multiplicative', beta: 0.5, cut: 'every-ack' });
    c.onAck(ack(0, 0, 50)); // 1 + 1/1 = 2
    c.onAck(ack(1, 0, 50)); // 2.5
    c.onAck(ack(2, 0, 50)); // 2.9
    expect(c.windowSize()).toBeCloseTo(2.9, 12);
    c.onAck(ack(3, 10, 160));
    expect(c.windowSize()).toBeCloseTo(1.45, 12);
    c.onAck(ack(4, 20, 170)); // every ACK above cuts again
    expect(c.windowSize()).toBe(1);
  });

  it('cuts once per window when asked: ACKs of packets sent before the cut do not cut again', () => {
    const c = make('delay-trigger', { variant: 'multiplicative', cut: 'once-per-window' });
    for (let i = 0; i < 3; i++) c.onAck(ack(i, 0, 50)); // 4
    c.onAck(ack(3, 10, 160));
    expect(c.windowSize()).toBe(2);
    c.onAck(ack(4, 20, 170)); // sent before the cut
    expect(c.windowSize()).toBe(2);
    c.onAck(ack(5, 200, 350));
    expect(c.windowSize()).toBe(1);
  });

  it('additive once-per-window: −decrease once per window', () => {
    const c = make('delay-trigger', { decrease: 2, cut: 'once-per-window' });
    for (let i = 0; i < 5; i++) c.onAck(ack(i, 0, 50)); // 6
    c.onAck(ack(5, 10, 160));
    c.onAck(ack(6, 20, 170));
    expect(c.windowSize()).toBe(4);
  });

  it('a packet sent at the very moment of the cut carries news after it, and cuts again; its threshold and RTTmin are drawn', () => {
    const c = make('delay-trigger', { variant: 'multiplicative', cut: 'once-per-window' });
    for (let i = 0; i < 3; i++) c.onAck(ack(i, 0, 50)); // 4
    c.onAck(ack(3, 10, 160)); // cut at 160
    c.onAck(ack(4, 160, 300)); // sent at 160
    expect(c.windowSize()).toBe(1);
    expect(c.estimates()).toEqual({ threshold: 100, rttMin: 50 });
  });
});
