import { describe, expect, it } from 'vitest';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

const C = 0.4;
const BETA = 0.7;

describe('CUBIC', () => {
  it('slow-starts, keeps β·w after a loss once per window, then heads for W(t + RTTmin)', () => {
    const c = make('cubic');
    for (let s = 0; s <= 12; s++) c.onSend(s, 0);
    for (let i = 1; i <= 9; i++) c.onAck(ack(i - 1, 0, 100, { cumulative: i })); // RTT 100 ms
    expect(c.windowSize()).toBe(10);
    c.onLoss(900, 9);
    expect(c.windowSize()).toBeCloseTo(7, 12);
    c.onLoss(901, 10); // sent before the reduction: one reaction per window
    expect(c.windowSize()).toBeCloseTo(7, 12);
    const K = Math.cbrt((10 - 7) / C);
    c.onAck(ack(12, 900, 1000, { cumulative: 13 }));
    // t = 0 + RTTmin: the cubic curve one RTT ahead is above the TCP-friendly 7
    let w = 7;
    w += (C * Math.pow(0.1 - K, 3) + 10 - w) / w;
    expect(c.windowSize()).toBeCloseTo(w, 12);
    c.onAck(ack(13, 1900, 2000, { cumulative: 14 }));
    const cubicW = C * Math.pow(1.1 - K, 3) + 10; // 9.75: one packet per 2.63 ACKs
    const friendly = 10 * BETA + ((3 * (1 - BETA)) / (1 + BETA)) * (1 / 0.1); // 12.3: per 1.35 ACKs
    expect(w / (cubicW - w)).toBeCloseTo(2.63, 2);
    expect(w / (friendly - w)).toBeCloseTo(1.35, 2);
    w += 0.5; // capped at one packet per two ACKs
    expect(c.windowSize()).toBeCloseTo(w, 12);
  });

  it('fast convergence: a loss below the last maximum remembers a lower one', () => {
    const c = make('cubic');
    for (let s = 0; s <= 40; s++) c.onSend(s, 0);
    for (let i = 1; i <= 9; i++) c.onAck(ack(i - 1, 0, 100, { cumulative: i })); // 10
    c.onLoss(900, 9); // wMax 10, w 7
    c.onSend(41, 950);
    c.onLoss(1000, 41); // a new episode below wMax: wMax = 7 × 1.7 / 2
    expect(c.windowSize()).toBeCloseTo(4.9, 12);
    c.onAck(ack(41, 1000, 1100, { cumulative: 42 }));
    const K = Math.cbrt((5.95 - 4.9) / C);
    expect(c.windowSize()).toBeCloseTo(4.9 + (C * Math.pow(0.1 - K, 3) + 5.95 - 4.9) / 4.9, 12);
  });

  it('HyStart leaves slow start when a round’s first eight RTTs rise by an eighth of the last round’s', () => {
    const rising = (rtt: number) => {
      const c = make('cubic');
      for (let s = 0; s < 200; s++) c.onSend(s, 0);
      for (let i = 0; i < 16; i++) c.onAck(ack(i, 0, 100, { cumulative: i + 1 })); // round 1: RTT 100, w 17
      for (let s = 200; s < 300; s++) c.onSend(s, 100);
      for (let i = 200; i < 208; i++) c.onAck(ack(i, 100, 100 + rtt, { cumulative: i + 1 })); // round 2
      return c;
    };
    expect(rising(120).estimates().ssthresh).toBe(25); // 120 ≥ 100 + 12.5
    expect(rising(110).estimates().ssthresh).toBe(Infinity);
    const off = make('cubic', { hystart: 'off' });
    expect(off.estimates().ssthresh).toBe(Infinity);
  });

  it('with no loss yet, grows at least 5% per RTT: one packet per 20 ACKs', () => {
    const c = make('cubic');
    for (let s = 0; s < 200; s++) c.onSend(s, 0);
    for (let i = 0; i < 16; i++) c.onAck(ack(i, 0, 100, { cumulative: i + 1 }));
    for (let s = 200; s < 300; s++) c.onSend(s, 100);
    for (let i = 200; i < 208; i++) c.onAck(ack(i, 100, 220, { cumulative: i + 1 })); // HyStart: ssthresh 25
    c.onAck(ack(208, 100, 220, { cumulative: 209 })); // the cubic curve from 25 is flat one RTT ahead
    expect(c.windowSize()).toBeCloseTo(25 + 1 / 20, 12);
  });

  it('restarts from one packet on timeout', () => {
    const c = make('cubic');
    for (let i = 1; i <= 9; i++) c.onAck(ack(i - 1, 0, 100, { cumulative: i }));
    c.onTimeout(1000);
    expect(c.windowSize()).toBe(1);
    expect(c.estimates().ssthresh).toBeCloseTo(7, 12);
    expect(c.timeoutMs()).toBe(2 * 200); // SRTT 100 + 4 × RTTVAR 5 is under the 200 ms floor; backed off once
  });
});
