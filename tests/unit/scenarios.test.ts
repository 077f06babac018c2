import { describe, expect, it } from 'vitest';
import { summarize } from '../../shared/metrics/summary.ts';
import { flowSeries } from '../../shared/metrics/fairness.ts';
import { contest, flow, MATRIX, matrixRun, offsetServer, SHARED_PRESETS, sharedBottleneck } from '../../shared/scenarios/presets.ts';
import { DEFAULT_MEASUREMENT, fitLatency, runMeasurement } from '../../shared/scenarios/measurement.ts';
import { runScenario, ScenarioError } from '../../shared/scenarios/run.ts';
import { MATRIX_SEEDS, matrixRuns, rowVerdict, runVerdict, verdictRank } from '../../shared/scenarios/matrix.ts';
import type { LinkModel } from '../../shared/link/spec.ts';
import { grade } from '../../shared/metrics/grade.ts';
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
  const verdicts = (i: number, scheme = 'reno', model: LinkModel = 'mahimahi') =>
    rowVerdict(matrixRuns(MATRIX[i], scheme, {}, MATRIX_SEEDS, 1, model).map((spec) => summarize(runScenario(spec, loadTrace))));

  it('a clean row finishes at the hand-computed time and grade, the same on every seed', () => {
    // one 1000 + 52-byte segment: serialized at the rate, 10 ms each way, and an 80-byte ACK back
    const finish = (mbps: number) => ((1052 + 80) * 8) / (mbps * 1000) + 20;
    const label = (mbps: number) => grade({ bytes: 1000, seconds: finish(mbps) / 1000, bandwidth: mbps * 1e6, latencyMs: 10, dropPercent: 0 }).label;
    expect(label(1)).toBe('PERF22');
    expect(label(5)).toBe('PERF6');
    const s = summarize(runScenario(matrixRun(MATRIX[0]), loadTrace)).flows[0].reliable!;
    expect(s.seconds * 1000).toBeCloseTo(finish(1), 9);
    expect(verdicts(0)).toEqual({ seeds: 10, passed: 10, timedOut: 0, verdicts: Array(10).fill('PERF22'), spread: 'PERF22' });
    expect(verdicts(16).verdicts).toEqual(Array(10).fill('PERF6'));
  });

  it('a row past the harness timeout fails by timeout: 30 s, 60 s for the last advanced row', () => {
    expect(MATRIX.map((r) => r.timeoutMs / 1000)).toEqual([...Array(15).fill(30), 60, ...Array(5).fill(30)]);
    const run = runScenario(matrixRun(MATRIX[11]), loadTrace); // medium at 50% drop both ways
    expect(run.endMs).toBe(30_000);
    expect(run.flows[0].finishedAt).toBe(-1);
    expect(runVerdict(summarize(run))).toBe('TIMEOUT');
  });

  it('over ten seeds: pass rate and grade spread per row', () => {
    expect(verdicts(11)).toMatchObject({ passed: 0, timedOut: 10, spread: 'TIMEOUT' }); // 75% of round trips lost, 1 s RTO floor
    // the course's own sender keeps trying on its fixed timer: slow, but every seed gets there
    expect(verdicts(11, 'fixed-timer')).toMatchObject({ passed: 10, timedOut: 0, spread: 'FAIL' });
    const lossy = verdicts(18);
    expect(lossy.passed).toBe(10);
    expect(lossy.spread).toBe(`${lossy.verdicts.reduce((w, v) => (verdictRank(v) < verdictRank(w) ? v : w))}–${lossy.verdicts.reduce((b, v) => (verdictRank(v) > verdictRank(b) ? v : b))}`);
    expect(new Set(lossy.verdicts).size).toBeGreaterThan(1); // the seeds differ
  });

  it('orders verdicts from a timeout to OKAY', () => {
    expect(['OKAY', 'PERF7', 'FAIL', 'TIMEOUT', 'PERF40', 'WRONG'].sort((a, b) => verdictRank(a) - verdictRank(b))).toEqual(['TIMEOUT', 'WRONG', 'FAIL', 'PERF7', 'PERF40', 'OKAY']);
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
    const series = flowSeries(
      run.log,
      2,
      500,
      end,
      run.flows.map((f) => f.startMs),
      run.flows.map((f) => f.finishedAt),
    );
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
