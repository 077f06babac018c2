import { describe, expect, it } from 'vitest';
import { summarize } from '../../shared/metrics/summary.ts';
import { flowSeries } from '../../shared/metrics/fairness.ts';
import { contest, flow, MATRIX, matrixRun, offsetServer, SHARED_PRESETS, sharedBottleneck } from '../../shared/scenarios/presets.ts';
import { DEFAULT_MEASUREMENT, fitLatency, runMeasurement } from '../../shared/scenarios/measurement.ts';
import { runScenario, ScenarioError } from '../../shared/scenarios/run.ts';
import { loadTrace } from '../../server/traces.ts';

describe('the contest preset', () => {
  it('a fixed window of 50 on the Verizon trace: the whole 140 s, near-capacity throughput, and the omniscient corner', () => {
    const s = summarize(runScenario(contest('Verizon-LTE-short', [flow('fixed', { w: 50 })]), loadTrace));
    expect(s.endMs).toBe(140_000);
    expect(s.all.throughputMbps).toBeGreaterThan(4.5);
    expect(s.all.throughputMbps).toBeLessThan(5.05);
    expect(s.omniscient!.throughputMbps).toBeCloseTo(5.04, 1);
    expect(s.omniscient!.delay95).toBeLessThan(s.all.delay95);
    expect(s.all.oneWay95).toBeGreaterThan(s.all.queueDelay95); // propagation included
  });

  it('the headline lesson: the BDP estimator keeps delay far below AIMD at similar throughput', () => {
    const both = summarize(runScenario(contest('Verizon-LTE-short', [flow('aimd')]), loadTrace)).all;
    const bdp = summarize(runScenario(contest('Verizon-LTE-short', [flow('bdp')]), loadTrace)).all;
    expect(bdp.delay95 * 3).toBeLessThan(both.delay95);
    expect(bdp.throughputMbps).toBeGreaterThan(0.7 * both.throughputMbps);
    expect(bdp.score).toBeGreaterThan(both.score);
  });

  it('refuses a burst scheme and unknown parameters with a clear message', () => {
    expect(() => runScenario(contest('Verizon-LTE-short', [flow('burst-aimd')]), loadTrace)).toThrow(ScenarioError);
    expect(() => runScenario(contest('Verizon-LTE-short', [flow('aimd', { zz: 1 })]), loadTrace)).toThrow(/no parameter "zz"/);
    expect(() => runScenario(contest('Verizon-LTE-short', [flow('aimd', { b: 7 })]), loadTrace)).toThrow(/b must be a number from 0.05 to 0.95/);
  });
});

describe('the reliable-transport matrix', () => {
  it('every row passes with Reno: the receiver gets the exact bytes', () => {
    for (const row of MATRIX) {
      const s = summarize(runScenario(matrixRun(row), loadTrace));
      expect(s.flows[0].reliable!.exact, row.name).toBe(true);
      expect(s.flows[0].reliable!.grade, row.name).not.toBeNull();
    }
  });
});

describe('the offset-server presets', () => {
  it('burst AIMD fetches the whole file with the right MD5 from the constant-rate server', () => {
    const s = summarize(runScenario(offsetServer(false), loadTrace));
    const o = s.flows[0].offset!;
    expect(o.result).toBe(true);
    expect(o.timeMs).toBeGreaterThan(o.boundMs);
    expect(o.requests).toBeGreaterThanOrEqual(691);
  });

  it('a window-mode controller works too, on the variable-rate server', () => {
    const s = summarize(runScenario(offsetServer(true, [flow('aimd', { timeout: 100 }, 0, 1_000_000)]), loadTrace));
    expect(s.flows[0].offset!.result).toBe(true);
  });
});

describe('the shared bottleneck', () => {
  it('identical flows converge to a fair share (Jain ≥ 0.95)', () => {
    const preset = SHARED_PRESETS.find((p) => p.id === 'cdn')!;
    const spec = sharedBottleneck({ ...preset, sizes: [30e6, 30e6] }, ['reno', 'reno']);
    const run = runScenario(spec, loadTrace);
    expect(run.flows.every((f) => f.exact)).toBe(true);
    const end = Math.min(...run.flows.map((f) => f.finishedAt));
    const series = flowSeries(run.log, 2, 500, end, run.flows.map((f) => f.startMs), run.flows.map((f) => f.finishedAt));
    const late = Array.from(series.jain).filter((j, i) => series.t[i] > end / 2 && Number.isFinite(j));
    const meanJain = late.reduce((a, b) => a + b, 0) / late.length;
    expect(meanJain).toBeGreaterThanOrEqual(0.95);
  });
});

describe('measurement', () => {
  it('the fitted line recovers bandwidth and delay within 10%', () => {
    const m = runMeasurement(DEFAULT_MEASUREMENT);
    expect(Math.abs(m.fit.mbps - DEFAULT_MEASUREMENT.mbps) / DEFAULT_MEASUREMENT.mbps).toBeLessThan(0.1);
    expect(Math.abs(m.fit.delayMs - DEFAULT_MEASUREMENT.delayMs) / DEFAULT_MEASUREMENT.delayMs).toBeLessThan(0.1);
  });

  it('fits through the fastest round trip of each size, so a delayed repeat changes nothing', () => {
    const clean = [10, 1000, 5000].map((size) => ({ size, rttMs: 24 + (16 * size) / 8000 }));
    const f = fitLatency([...clean, { size: 1000, rttMs: 90 }, { size: 10, rttMs: 30 }]);
    expect(f.mbps).toBeCloseTo(8, 9);
    expect(f.delayMs).toBeCloseTo(12, 9);
  });

  it('fits an exact line exactly', () => {
    const f = fitLatency([10, 1000, 5000].map((size) => ({ size, rttMs: 24 + (16 * size) / 8000 })));
    expect(f.mbps).toBeCloseTo(8, 9);
    expect(f.delayMs).toBeCloseTo(12, 9);
  });
});
