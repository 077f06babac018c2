import { SCHEMES, type SchemeCatalogue } from '../controllers/registry.ts';
import type { Summary } from '../metrics/summary.ts';
import { contestOn } from '../scenarios/contestOn.ts';
import { summaryOfRun } from '../scenarios/measureRun.ts';
import type { TraceSource } from '../scenarios/run.ts';
import type { FlowSpec, ScenarioSpec } from '../scenarios/spec.ts';
import type { Trace } from '../trace/mahimahi.ts';
import { segmentsName, segmentsTrace, type Segment } from './segments.ts';

/** The contest's score for a throughput and a delay95: ln(Mbit/s ÷ ms). */
export const contestScore = (throughputMbps: number, delay95: number) => Math.log(throughputMbps / delay95);

/**
 * The run `npm run sim -- --trace FILE` makes of a trace file: the contest with the file carrying the data
 * and the ACKs, for as long as its last timestamp says. The search scores candidates exactly so, so that
 * the command it prints gives the score it reports.
 */
export function contestOnTrace(trace: Trace, flow: FlowSpec, seed: number, code?: string): ScenarioSpec {
  const spec = contestOn(trace.name, [flow], seed, () => trace.times[trace.times.length - 1]);
  return code === undefined ? spec : { ...spec, code };
}

/** A source that finds this one trace by its name (the generated traces are not files until the end). */
export const onlyTrace =
  (trace: Trace): TraceSource =>
  (name) => {
    if (name !== trace.name) throw new Error(`no trace named ${name}`);
    return trace;
  };

/**
 * The controller's contest score on a segment trace, and the omniscient sender's (its delay95 floored at
 * 1 ms: on a steady fast link the ideal sender waits under a millisecond, and ln of that would dwarf every
 * real gap).
 */
export function scoreSegments(segments: readonly Segment[], flow: FlowSpec, seed: number, code?: string, schemes: SchemeCatalogue = SCHEMES): { score: number; omniscientScore: number } {
  const trace = segmentsTrace(segments, segmentsName(segments));
  const summary = summaryOfRun(contestOnTrace(trace, flow, seed, code), onlyTrace(trace), schemes);
  return scoresOf(summary);
}

/** The controller's score and the omniscient sender's from a run's summary (a run in a worker sends only that). */
export function scoresOf(summary: Summary): { score: number; omniscientScore: number } {
  const ideal = summary.omniscient!;
  return { score: summary.all.score, omniscientScore: contestScore(ideal.throughputMbps, Math.max(1, ideal.delay95)) };
}
