import { describe, expect, it } from 'vitest';
import { K } from '../../../shared/log/kinds.ts';
import { summarize } from '../../../shared/metrics/summary.ts';
import { flow, rateLink } from '../../../shared/scenarios/presets.ts';
import { runScenario } from '../../../shared/scenarios/run.ts';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

describe('BBR v1', () => {
  it('does not pace before it has a bandwidth sample, and grows one packet per ACK in startup', () => {
    const c = make('bbr');
    expect(c.pacingRate()).toBe(Infinity);
    expect(c.windowSize()).toBe(10);
    for (let s = 0; s < 3; s++) c.onSend(s, 0);
    c.onAck(ack(0, 0, 40, { inFlight: 2 }));
    expect(c.windowSize()).toBe(11);
    expect(c.estimates().rttMin).toBe(40);
  });

  // 12 Mbit/s serves one 1500-byte packet per ms; 20 ms each way.
  const run = (seconds: number) =>
    runScenario({ workload: 'contest', link: rateLink(12, 20), flows: [flow('bbr')], seed: 1, durationMs: seconds * 1000, offset: null }, () => {
      throw new Error('no traces');
    });

  it('finds the bottleneck rate and the propagation RTT, then keeps the queue short', () => {
    const result = run(8);
    const est = new Map<number, number>();
    const c = result.log.columns;
    for (let i = 0; i < result.log.length; i++) if (c.kind[i] === K.estimate) est.set(c.seq[i], c.value[i]);
    const bandwidth = est.get(2)!; // packets per second
    const rttMin = est.get(1)!;
    expect(bandwidth).toBeGreaterThan(950);
    expect(bandwidth).toBeLessThan(1050);
    expect(rttMin).toBeGreaterThan(41);
    expect(rttMin).toBeLessThan(42);
    const m = summarize(result).all;
    expect(m.throughputMbps).toBeGreaterThan(11.5);
    // after startup's overshoot drains, the standing queue is below one BDP (≈ 41 ms)
    const lateDelays: number[] = [];
    for (let i = 0; i < result.log.length; i++) if (c.kind[i] === K.depart && c.t[i] > 4000) lateDelays.push(c.value[i]);
    lateDelays.sort((a, b) => a - b);
    expect(lateDelays[Math.floor(lateDelays.length * 0.95)]).toBeLessThan(41);
  });

  it('probes the RTT after ten seconds by cutting the window to four packets', () => {
    const result = run(12);
    const c = result.log.columns;
    let minLate = Infinity;
    for (let i = 0; i < result.log.length; i++) if (c.kind[i] === K.ack && c.t[i] > 10_000) minLate = Math.min(minLate, c.window[i]);
    expect(minLate).toBe(4);
  });
});
