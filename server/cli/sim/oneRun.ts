import { writeFileSync } from 'node:fs';
import type { SchemeCatalogue } from '../../../shared/controllers/registry.ts';
import { withUserCode } from '../../../shared/controllers/userInstalled.ts';
import { formatIntervalCsv } from '../../../shared/csv/intervals.ts';
import { formatTraceCsv } from '../../../shared/csv/trace.ts';
import { summarize } from '../../../shared/metrics/summary.ts';
import { runScenario } from '../../../shared/scenarios/run.ts';
import type { ScenarioSpec } from '../../../shared/scenarios/spec.ts';
import { loadTrace } from '../../traces.ts';
import { userCodeDone } from '../asProcess.ts';
import type { Io } from '../tool.ts';
import type { SimFlags } from './simFlags.ts';
import { type SimOutput, summaryText } from './summaryText.ts';

/** One run's output, with its trace CSV and per-interval summary CSV made when asked for. */
export interface OneRun extends SimOutput {
  traceCsv(): string;
  intervalCsv(intervalMs: number): string;
}

export function runOnce(spec: ScenarioSpec, schemes: SchemeCatalogue): OneRun {
  const carried = withUserCode(spec, schemes);
  const t0 = performance.now();
  const result = runScenario(carried, loadTrace, schemes);
  const wallMs = performance.now() - t0;
  return {
    summary: summarize(result),
    spec: carried,
    wallMs,
    traceCsv: () => formatTraceCsv(result.log, carried),
    intervalCsv: (ms) => formatIntervalCsv(result.log, ms, result.endMs),
  };
}

/** Writes the run's files the flags ask for and prints its summary. */
export function emitRun(out: OneRun, flags: Pick<SimFlags, 'csv' | 'summaryCsv' | 'interval' | 'json'>, io: Io): void {
  userCodeDone();
  if (flags.csv) writeFileSync(flags.csv, out.traceCsv());
  if (flags.summaryCsv) writeFileSync(flags.summaryCsv, out.intervalCsv(flags.interval));
  io.out(flags.json ? JSON.stringify({ ...out.summary, wallMs: out.wallMs }) : summaryText(out));
}
