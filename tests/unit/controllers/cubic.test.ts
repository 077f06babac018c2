import { describe, expect, it } from 'vitest';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

describe('CUBIC', () => {
  it('slow-starts, keeps β·w after a loss, then follows max(cubic, TCP-friendly) growth', () => {
    const c = make('cubic');
    for (let i = 1; i <= 9; i++) c.onAck(ack(i - 1, 0, 100, { cumulative: i })); // RTT 100 ms
    expect(c.windowSize()).toBe(10);
    c.onLoss(900);
    expect(c.windowSize()).toBeCloseTo(7, 12);
    const C = 0.4;
    const beta = 0.7;
    const K = Math.cbrt((10 - 7) / C);
    // at the epoch's start both curves sit at 7: only the minimal probe step
    c.onAck(ack(9, 900, 1000, { cumulative: 10 }));
    let w = 7 + 0.01 / 7;
    expect(c.windowSize()).toBeCloseTo(w, 12);
    // one second (ten RTTs) later: the TCP-friendly estimate leads
    c.onAck(ack(10, 1900, 2000, { cumulative: 11 }));
    const cubicW = C * Math.pow(1 - K, 3) + 10;
    const friendly = 10 * beta + ((3 * (1 - beta)) / (1 + beta)) * (1 / 0.1);
    const goal = Math.max(cubicW, friendly);
    w += (goal - w) / w;
    expect(c.windowSize()).toBeCloseTo(w, 12);
  });

  it('restarts from one packet on timeout', () => {
    const c = make('cubic');
    for (let i = 1; i <= 9; i++) c.onAck(ack(i - 1, 0, 100, { cumulative: i }));
    c.onTimeout(1000);
    expect(c.windowSize()).toBe(1);
    expect(c.estimates().ssthresh).toBeCloseTo(7, 12);
  });
});
