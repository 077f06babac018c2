import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatTraceCsv } from '../../shared/csv/trace.ts';
import { summarize } from '../../shared/metrics/summary.ts';
import { contest, flow, MATRIX, matrixRun, offsetServer, rateLink } from '../../shared/scenarios/presets.ts';
import { summaryOfRun } from '../../shared/scenarios/measureRun.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import type { Discipline } from '../../shared/link/queue.ts';
import type { ScenarioSpec } from '../../shared/scenarios/spec.ts';
import { loadTrace } from '../../server/traces.ts';

/**
 * Golden runs: the CSV and the summary of each, by digest, as the model gave them when these were
 * recorded. A change that is meant to make the model faster must leave every one of them as it is; a
 * change of behaviour updates them on purpose (and says so).
 */
const sha = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

function digests(spec: ScenarioSpec): { csv: string; summary: string } {
  const run = runScenario(spec, loadTrace);
  return { csv: sha(formatTraceCsv(run.log, spec)), summary: sha(JSON.stringify(summarize(run))) };
}

const impaired = (): ScenarioSpec => {
  const spec = contest('Verizon-LTE-short', [flow('aimd'), flow('cubic', {}, 300)], 5);
  spec.durationMs = 30_000;
  spec.link.forward = { ...spec.link.forward, loss: 0.01, jitter: 2, duplicate: 0.005, reorder: 0.01 };
  spec.link.reverse = { ...spec.link.reverse, loss: 0.005, burst: { p: 0.01, r: 0.3, lossBad: 0.5 } };
  return spec;
};

/** One flow for 20 s on a constant-rate link whose queue runs an active discipline. */
function aqmRun(scheme: string, mbps: number, delayMs: number, limit: number, discipline: Discipline, seed: number): ScenarioSpec {
  return { ...contest('Verizon-LTE-short', [flow(scheme)], seed), link: rateLink(mbps, delayMs, undefined, { kind: 'packets', limit, discipline }), durationMs: 20_000 };
}

const GOLDEN: [string, () => ScenarioSpec, { csv: string; summary: string }][] = [
  ['the contest run the bench times (fixed w=50, Verizon LTE, 140 s)', () => contest('Verizon-LTE-short', [flow('fixed', { w: 50 })]), { csv: '8edd3a17df51be05', summary: 'a5e820ae8660d911' }],
  [
    'AIMD on the contest trace, losses inferred from ACKs',
    () => ({ ...contest('Verizon-LTE-short', [flow('aimd', { loss: 'detect', timeout: 100 })], 2), durationMs: 40_000 }),
    { csv: '00e9850554d1053b', summary: '7b37460749c5dcee' },
  ],
  [
    'three flows on one bottleneck, staggered',
    () => ({ ...contest('TMobile-LTE-short', [flow('fixed', { w: 20 }), flow('aimd', {}, 2000), flow('cubic', {}, 5000)], 3), durationMs: 20_000 }),
    { csv: '3efbd803ab0f8bad', summary: 'b530f3bf7a163648' },
  ],
  ['impaired both ways (loss, burst loss, jitter, duplication, reordering)', impaired, { csv: '2224f9c19ad8ca82', summary: '48805743a978ddf7' }],
  ['CoDel on a constant-rate link', () => aqmRun('cubic', 6, 30, 200, { kind: 'codel', target: 5, interval: 100 }, 4), { csv: '52a5357182caa451', summary: 'c6d558ff1b33e755' }],
  ['PIE on a constant-rate link', () => aqmRun('aimd', 3, 10, 300, { kind: 'pie', qdelayRef: 15, maxBurst: 150 }, 6), { csv: 'c68c2c06a73acb3d', summary: '1d8857e6b8c5aae7' }],
  ['a reliable transfer over a lossy row of the matrix', () => matrixRun(MATRIX.find((r) => r.drop > 0 && r.delay > 0)!, 'reno', {}, 7), { csv: 'a87096265d3986b1', summary: '9943160b86465168' }],
  ['the offset server, variable rate', () => offsetServer(true, [flow('burst-aimd', {}, 0, 200_000)], 8), { csv: '8250a0122c338961', summary: '59413c932f3698d9' }],
];

describe('golden runs', () => {
  for (const [name, spec, want] of GOLDEN) {
    it(name, () => {
      expect(digests(spec())).toEqual(want);
    });
  }

  it("gives the same summaries on the grader's path, each run in the columns the run before gave back", () => {
    // largest first, so that every later run writes over rows an earlier one left
    const specs = GOLDEN.map(([, spec, want]) => ({ spec: spec(), want: want.summary })).sort((a, b) => b.spec.durationMs - a.spec.durationMs);
    const summaries = specs.map(({ spec }) => sha(JSON.stringify(summaryOfRun(spec, loadTrace))));
    expect(summaries).toEqual(specs.map((s) => s.want));
  });
});
