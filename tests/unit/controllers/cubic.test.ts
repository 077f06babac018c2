import { describe, expect, it } from 'vitest';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

const C = 0.4;

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
    expect(w / (cubicW - w)).toBeCloseTo(2.63, 2);
    // Reno counted over these two ACKs is still at 7 (one packet per 7 × 1.7 / 0.9 = 13.2 ACKs): the curve leads
    w += (cubicW - w) / w;
    expect(c.windowSize()).toBeCloseTo(w, 12);
    c.onAck(ack(14, 2900, 3000, { cumulative: 15 }));
    const at3 = C * Math.pow(2.1 - K, 3) + 10; // 10.0: one packet per 3.5 ACKs
    w += (at3 - w) / w;
    expect(c.windowSize()).toBeCloseTo(w, 12);
  });

  it('TCP-friendly region: Reno’s window counted in ACKs, 3(1 − β)/(1 + β) packets per window of them', () => {
    // β = 0.5 makes Reno's step one packet per w ACKs; C = 0.1 keeps the curve flat for seconds
    const c = make('cubic', { c: 0.1, beta: 0.5 });
    for (let s = 0; s <= 40; s++) c.onSend(s, 0);
    for (let i = 1; i <= 9; i++) c.onAck(ack(i - 1, 0, 100, { cumulative: i })); // w 10
    c.onLoss(900, 9); // wMax 10, w 5
    const K = Math.cbrt(5 / 0.1);
    const curve = 0.1 * Math.pow(0.1 - K, 3) + 10; // 5.41, the same for every ACK at t = 1000
    let w = 5;
    let reno = 5;
    let acks = 0;
    for (let i = 12; i < 24; i++) {
      c.onAck(ack(i, 900, 1000, { cumulative: i + 1 }));
      acks++;
      while (acks > w) {
        acks -= w;
        reno++;
      }
      const towardsCurve = curve > w ? w / (curve - w) : 100 * w;
      const cnt = Math.max(2, Math.min(towardsCurve, reno > w ? w / (reno - w) : Infinity));
      w += 1 / cnt;
    }
    // Reno passed the curve at the sixth ACK (6 > 5.41) and reached 7 by the twelfth: it set the pace
    expect(reno).toBe(7);
    expect(c.windowSize()).toBeCloseTo(w, 12);
    expect(c.windowSize()).toBeGreaterThan(curve + 0.5);
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

  /** Slow start's first round of 16 ACKs at an RTT of 100 ms (w 17), and the second round's packets sent. */
  const intoRoundTwo = () => {
    const c = make('cubic');
    for (let s = 0; s < 200; s++) c.onSend(s, 0);
    for (let i = 0; i < 16; i++) c.onAck(ack(i, 0, 100, { cumulative: i + 1 }));
    for (let s = 200; s < 300; s++) c.onSend(s, 100);
    return c;
  };

  it('HyStart delay: after eight RTTs of a round, their least above the minimum by an eighth of it', () => {
    const rising = (rtt: number) => {
      const c = intoRoundTwo();
      // round 2, ACKs 10 ms apart (no ACK train): eight samples, then the ninth ACK checks them
      for (let i = 200; i < 209; i++) c.onAck(ack(i, 100 + (i - 200) * 10 - rtt + 100, 100 + (i - 200) * 10 + 100, { cumulative: i + 1 }));
      return c;
    };
    expect(rising(120).estimates().ssthresh).toBe(25); // 120 > 100 + 12.5 on the ninth ACK, at w 25
    expect(rising(112).estimates().ssthresh).toBe(Infinity); // 112 is within 12.5 ms
    const off = make('cubic', { hystart: 'off' });
    expect(off.estimates().ssthresh).toBe(Infinity);
  });

  it('HyStart ACK train: ACKs at most 2 ms apart spanning more than half the minimum RTT', () => {
    const train = (gap: number) => {
      const c = intoRoundTwo();
      // round 2 starts at t = 200; with 2 ms gaps the 27th ACK, at 252 ms, is past 200 + 50
      for (let i = 200; i < 240; i++) c.onAck(ack(i, 100, 200 + (i - 200) * gap, { cumulative: i + 1 }));
      return c.estimates().ssthresh;
    };
    expect(train(2)).toBe(17 + 26); // the window when the ACK at 252 ms arrived
    expect(train(2.5)).toBe(Infinity); // a 2.5 ms gap breaks the train at once
  });

  it('with no loss yet, grows at least 5% per RTT: one packet per 20 ACKs', () => {
    const c = intoRoundTwo();
    for (let i = 200; i < 209; i++) c.onAck(ack(i, 100 + (i - 200) * 10, 220 + (i - 200) * 10, { cumulative: i + 1 })); // HyStart: ssthresh 25
    c.onAck(ack(209, 190, 310, { cumulative: 210 }));
    // the ACK that ended slow start and the next one: the cubic curve from 25 is flat one RTT ahead
    expect(c.windowSize()).toBeCloseTo(25 + 2 / 20, 12);
  });

  it('restarts from one packet on timeout, forgetting Wmax as Linux’s Loss state does', () => {
    const c = make('cubic');
    for (let s = 0; s <= 20; s++) c.onSend(s, 0);
    for (let i = 1; i <= 9; i++) c.onAck(ack(i - 1, 0, 100, { cumulative: i }));
    c.onTimeout(1000);
    expect(c.windowSize()).toBe(1);
    expect(c.estimates().ssthresh).toBeCloseTo(7, 12);
    expect(c.timeoutMs()).toBe(2 * 200); // SRTT 100 + 4 × RTTVAR 5 is under the 200 ms floor; backed off once
    for (let i = 10; i <= 16; i++) c.onAck(ack(i - 1, 1000, 1100, { cumulative: i })); // slow start to 7 … 8
    // no Wmax: the curve starts flat from 8 at one packet per 20 ACKs, not towards the old 10
    const before = c.windowSize();
    c.onAck(ack(16, 1100, 1200, { cumulative: 17 }));
    expect(c.windowSize()).toBeCloseTo(before + 1 / 20, 12);
  });
});
