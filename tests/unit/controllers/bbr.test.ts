import { describe, expect, it } from 'vitest';
import { K } from '../../../shared/log/kinds.ts';
import { summarize } from '../../../shared/metrics/summary.ts';
import { flow, rateLink } from '../../../shared/scenarios/presets.ts';
import { runScenario } from '../../../shared/scenarios/run.ts';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

describe('BBR v1', () => {
  it('grows one packet per ACK in startup', () => {
    const c = make('bbr');
    expect(c.windowSize()).toBe(10);
    for (let s = 0; s < 3; s++) c.onSend(s, 0);
    c.onAck(ack(0, 0, 40, { inFlight: 2 }));
    expect(c.windowSize()).toBe(11);
    expect(c.estimates().rttMin).toBe(40);
  });

  it('drops to four packets on a timeout and gets its window back with the next ACK, as Linux leaving its loss state', () => {
    const c = make('bbr');
    for (let s = 0; s < 20; s++) c.onSend(s, 0);
    for (let i = 0; i < 5; i++) c.onAck(ack(i, 0, 40, { inFlight: 19 - i })); // startup: 10 → 15
    expect(c.windowSize()).toBe(15);
    c.onTimeout(1040);
    expect(c.windowSize()).toBe(4);
    c.onTimeout(2040); // a second timeout keeps the window saved before the first
    c.onAck(ack(5, 0, 2100, { inFlight: 14 }));
    expect(c.windowSize()).toBe(16); // the saved 15, then this ACK's startup growth
  });

  it('a timeout while probing the RTT keeps the window saved before the probe', () => {
    const c = make('bbr', { variant: 'linux-v1' });
    let seq = 0;
    for (; seq < 30; seq++) c.onSend(seq, 0);
    for (let i = 0; i < 20; i++) c.onAck(ack(i, 0, 40, { inFlight: 29 - i })); // startup: 10 → 30
    c.onSend(seq++, 10_100);
    c.onAck(ack(20, 10_050, 10_100, { inFlight: 9 })); // the RTT filter expired: probe the RTT at 4 packets
    expect((c as unknown as { state: string }).state).toBe('probe-rtt');
    expect(c.windowSize()).toBe(4);
    c.onTimeout(11_100);
    c.onAck(ack(21, 10_100, 11_200, { inFlight: 8 }));
    expect(c.windowSize()).toBe(4); // still probing
    // inflight at 4 starts the 200 ms and a round, then the end of both ends the probe: the window before it returns
    c.onAck(ack(22, 10_100, 11_300, { inFlight: 4 }));
    c.onSend(seq, 11_300);
    c.onAck(ack(seq, 11_300, 11_600, { inFlight: 3 }));
    expect((c as unknown as { state: string }).state).not.toBe('probe-rtt');
    expect(c.windowSize()).toBe(31);
  });

  // 12 Mbit/s serves one 1500-byte packet per ms; 20 ms each way.
  const run = (seconds: number, seed = 1) =>
    runScenario({ workload: 'contest', link: rateLink(12, 20), flows: [flow('bbr')], seed, durationMs: seconds * 1000, offset: null }, () => {
      throw new Error('no traces');
    });

  /**
   * Pacing gain over time: each logged pacing rate ÷ the bandwidth estimate of the moment, to 0.05 (the
   * log keeps an estimate only when it moved by more than 1%).
   */
  const gains = (result: ReturnType<typeof run>) => {
    const c = result.log.columns;
    let bw = NaN;
    const out: { t: number; gain: number }[] = [];
    for (let i = 0; i < result.log.length; i++) {
      if (c.kind[i] !== K.estimate) continue;
      if (c.seq[i] === 2) bw = c.value[i];
      if (c.seq[i] === 3 && Number.isFinite(bw)) out.push({ t: c.t[i], gain: Math.round((c.value[i] / bw) * 20) / 20 });
    }
    return out;
  };

  it('cycles the pacing gain through 1.25, 0.75 and ones in probe-bandwidth', () => {
    const late = gains(run(8))
      .filter((g) => g.t > 3000)
      .map((g) => g.gain);
    expect(late).toContain(1.25);
    expect(late).toContain(0.75);
    expect(late).toContain(1);
    expect(new Set(late).size).toBe(3);
  });

  it('enters probe-bandwidth at a seeded random phase, never the draining one', () => {
    const firstProbe = (seed: number) => {
      const g = gains(run(4, seed));
      const drained = g.findIndex((x) => x.gain < 0.5); // the drain phase paces at 1/2.89
      return g.slice(drained + 1).find((x) => x.gain !== g[drained].gain)!;
    };
    const starts = [1, 2, 3, 4, 5, 6].map(firstProbe);
    expect(starts.every((s) => s.gain !== 0.75)).toBe(true);
    // the wait for the 1.25 phase differs from seed to seed
    const probeAt = [1, 2, 3, 4, 5, 6].map((seed) => gains(run(4, seed)).find((x) => x.t > 500 && x.gain === 1.25)?.t);
    expect(new Set(probeAt).size).toBeGreaterThan(2);
    expect(firstProbe(3)).toEqual(firstProbe(3));
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
