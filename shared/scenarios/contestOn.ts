import { BUNDLED_TRACES, contest } from './presets.ts';
import type { FlowSpec, ScenarioSpec } from './spec.ts';

/**
 * The contest on any trace: a bundled one as the contest defines it, or another (a file given by path, an
 * upload) that carries the data while the ACKs cross the same file, for as long as `durationOf` says it lasts.
 */
export function contestOn(trace: string, flows: FlowSpec[], seed: number, durationOf: (trace: string) => number): ScenarioSpec {
  if (BUNDLED_TRACES.some((t) => t.name === trace)) return contest(trace, flows, seed);
  const spec = contest('Verizon-LTE-short', flows, seed);
  spec.link = { ...spec.link, trace, ackTrace: trace };
  spec.durationMs = durationOf(trace);
  return spec;
}

/**
 * The trace a contest run was asked on, as contestOn was given it: a bundled trace by its name (the run
 * reads its `.down` file), any other by the name or path it came as.
 */
export function contestTraceOf(spec: ScenarioSpec): string {
  if (spec.link.kind !== 'trace') return '';
  const { trace, ackTrace } = spec.link;
  // a bundled trace's .down file given by path carries the ACKs too: not the bundled contest
  const bundled = BUNDLED_TRACES.find((t) => `${t.name}.down` === trace && (t.ack ?? `${t.name}.up`) === ackTrace);
  return bundled ? bundled.name : trace;
}
