import { writeFileSync } from 'node:fs';
import { formatSweepCsv } from '../../../shared/csv/sweep.ts';
import { linkMetrics } from '../../../shared/metrics/linkMetrics.ts';
import type { SchemeCatalogue } from '../../../shared/controllers/registry.ts';
import { measureRun } from '../../../shared/scenarios/measureRun.ts';
import { contestTraceOf } from '../../../shared/scenarios/contestOn.ts';
import type { FlowSpec, ScenarioSpec } from '../../../shared/scenarios/spec.ts';
import { bestBy, frontier, scoreboardEntries, sweepPoint, sweepValuesOf, type SweepPoint } from '../../../shared/scenarios/sweep.ts';
import { loadTrace } from '../../traces.ts';
import { UsageError } from '../flags.ts';
import { userCodeDone } from '../asProcess.ts';
import type { Io } from '../tool.ts';
import type { SimFlags } from './simFlags.ts';
import { fixed, significant } from '../../../shared/text/figures.ts';

/** One contest of a sweep: the scheme, the parameter it tries (none on the scoreboard) and its values. */
interface SweepRun {
  scheme: string;
  param: string;
  /** The value tried, or a choice's rank in the sweep (its name is `choice`). */
  value: number;
  choice?: string;
  params: FlowSpec['params'];
}

/** One run per value of `--sweep NAME=VALUES`, the base flow's other parameters kept. */
export function sweepRuns(base: ScenarioSpec, sweep: string, catalogue: SchemeCatalogue): SweepRun[] {
  const [param, text] = [sweep.slice(0, sweep.indexOf('=')), sweep.slice(sweep.indexOf('=') + 1)];
  const scheme = base.flows[0].scheme;
  const values = sweepValuesOf(scheme, param, text, catalogue);
  if ('error' in values) throw new UsageError(`--sweep ${values.error}`);
  return values.map((v, i) => ({ scheme, param, value: typeof v === 'number' ? v : i, ...(typeof v === 'string' ? { choice: v } : {}), params: { ...base.flows[0].params, [param]: v } }));
}

/** One run per built-in window scheme, at its defaults. */
export const scoreboardRuns = (): SweepRun[] => scoreboardEntries().map((e) => ({ scheme: e.scheme, param: '', value: NaN, params: e.params }));

interface SweepResult {
  trace: string;
  points: SweepPoint[];
  frontier: SweepPoint[];
  bestPower: SweepPoint | null;
  bestScore: SweepPoint | null;
  wallMs: number;
}

/** A line per point (named by its value, or by its scheme on the scoreboard), marked best or on the frontier. */
function sweepText(r: SweepResult): string {
  const lines = r.points.map((p) => {
    const name = (p.param === '' ? p.scheme : `${p.param}=${p.choice ?? p.value}`).padEnd(16);
    const marks = [p === r.bestPower ? 'best power' : '', p === r.bestScore ? 'best score' : '', r.frontier.includes(p) ? 'frontier' : ''].filter(Boolean).join(', ');
    return `${name} ${fixed(p.throughputMbps).padStart(6)} Mbit/s ${fixed(p.delay95, 0).padStart(6)} ms  power ${significant(p.power).padStart(7)}  score ${fixed(p.score, 3).padStart(7)}  ${marks}`;
  });
  return [...lines, `${r.points.length} runs in ${fixed(r.wallMs / 1000, 2)} s`].join('\n');
}

/** Runs the contest once per sweep run, prints the points and writes their CSV when --csv asks. */
export function runSweep(base: ScenarioSpec, runs: readonly SweepRun[], catalogue: SchemeCatalogue, flags: Pick<SimFlags, 'csv' | 'json'>, io: Io): number {
  const t0 = performance.now();
  const points = runs.map((r) => {
    const spec = { ...base, flows: [{ ...base.flows[0], scheme: r.scheme, params: r.params }] };
    const point = sweepPoint(
      r.scheme,
      r.param,
      r.value,
      measureRun(spec, loadTrace, (run) => linkMetrics(run.log), catalogue),
    );
    return r.choice === undefined ? point : { ...point, choice: r.choice };
  });
  const wallMs = performance.now() - t0;
  userCodeDone();
  const front = frontier(points);
  const result: SweepResult = { trace: contestTraceOf(base), points, frontier: front, bestPower: bestBy(points, 'power'), bestScore: bestBy(points, 'score'), wallMs };
  const onFrontier = (p: SweepPoint) => front.includes(p);
  if (flags.csv) writeFileSync(flags.csv, formatSweepCsv(result.trace, points, onFrontier));
  io.out(flags.json ? JSON.stringify(result) : sweepText(result));
  return 0;
}
