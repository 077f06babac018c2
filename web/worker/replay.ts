import { CsvError, parseTraceCsv } from '../../shared/csv/trace.ts';
import type { EventLog } from '../../shared/log/eventLog.ts';
import { summarizeLog } from '../../shared/metrics/logSummary.ts';
import type { Summary } from '../../shared/metrics/summary.ts';
import type { LiveRun, ScenarioSpec } from '../../shared/scenarios/spec.ts';
import type { Trace } from '../../shared/trace/mahimahi.ts';

export interface ImportedRun {
  log: EventLog;
  spec: ScenarioSpec | LiveRun | null;
  endMs: number;
  summary: Summary;
}

/** A saved trace CSV read back into a run: its log, experiment, length and the figures its log tells. */
export async function importRun(csv: string, loadTrace: (name: string) => Promise<Trace | null>): Promise<ImportedRun & { trace: Trace | null }> {
  const { log, spec } = parseTraceCsv(csv);
  // A header alone reads (a session that has only just begun sends one), but there is no run in it to replay.
  if (log.length === 0) throw new CsvError('the file has no events: nothing follows its header');
  const trace = spec && 'workload' in spec && spec.link?.kind === 'trace' ? await loadTrace(spec.link.trace) : null;
  const lastEvent = log.length ? log.columns.t[log.length - 1] : 0;
  // A contest run lasts its whole duration even when the last packet came earlier.
  const endMs = spec && 'workload' in spec && spec.workload === 'contest' ? spec.durationMs : lastEvent;
  return { log, spec, endMs, trace, summary: summarizeLog(log, spec, endMs, trace) };
}
