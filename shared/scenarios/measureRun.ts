import { SCHEMES, type SchemeCatalogue } from '../controllers/registry.ts';
import { SampleStream } from '../metrics/sampleStream.ts';
import { summarize, type Summary } from '../metrics/summary.ts';
import { type RunResult, runScenario, type TraceSource } from './run.ts';
import type { ScenarioSpec } from './spec.ts';

/**
 * A run of which only figures are wanted (the contest's grader, a sweep point, a stress score). A contest
 * run keeps no log: each row goes to the samples its figures are made of as it happens (`measure` may
 * read the figures, not the rows). Other runs' figures read their logs, whose columns go back for the
 * next run once `measure` is done.
 */
export function measureRun<T>(spec: ScenarioSpec, traces: TraceSource, measure: (run: RunResult) => T, schemes: SchemeCatalogue = SCHEMES): T {
  const rows = spec.workload === 'contest' ? new SampleStream(spec.flows.length) : undefined;
  const run = runScenario(spec, traces, schemes, rows);
  try {
    return measure(run);
  } finally {
    run.log.giveBack();
    rows?.release();
  }
}

/** A run's summary alone. */
export function summaryOfRun(spec: ScenarioSpec, traces: TraceSource, schemes: SchemeCatalogue = SCHEMES): Summary {
  return measureRun(spec, traces, summarize, schemes);
}
