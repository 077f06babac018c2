import { SCHEMES, type SchemeCatalogue } from '../controllers/registry.ts';
import { summarize, type Summary } from '../metrics/summary.ts';
import { type RunResult, runScenario, type TraceSource } from './run.ts';
import type { ScenarioSpec } from './spec.ts';

/**
 * A run of which only figures are wanted (the contest's grader, a sweep point, a stress score): once
 * `measure` has read it, its log's columns go back for the next run, so runs one after another reuse one
 * set of buffers.
 */
export function measureRun<T>(spec: ScenarioSpec, traces: TraceSource, measure: (run: RunResult) => T, schemes: SchemeCatalogue = SCHEMES): T {
  const run = runScenario(spec, traces, schemes);
  try {
    return measure(run);
  } finally {
    run.log.giveBack();
  }
}

/** A run's summary alone. */
export function summaryOfRun(spec: ScenarioSpec, traces: TraceSource, schemes: SchemeCatalogue = SCHEMES): Summary {
  return measureRun(spec, traces, summarize, schemes);
}
