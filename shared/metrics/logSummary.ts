import type { EventLog } from '../log/eventLog.ts';
import { K } from '../log/kinds.ts';
import type { FlowOutcome, RunResult } from '../scenarios/run.ts';
import { flow, offsetServer } from '../scenarios/presets.ts';
import type { LiveRun, ScenarioSpec } from '../scenarios/spec.ts';
import type { Trace } from '../trace/mahimahi.ts';
import { summarize, type Summary } from './summary.ts';

/**
 * A summary for a run known only by its log (an imported CSV, a live fetch): the outcomes a log can tell
 * — when each flow finished, and for offset fetches the server's verdict, Time and Penalty from the
 * `done` row — go through the same summarize as a simulated run.
 */
export function summarizeLog(log: EventLog, spec: ScenarioSpec | LiveRun | null, endMs: number, trace: Trace | null): Summary {
  const c = log.columns;
  let flows = 0;
  for (let i = 0; i < log.length; i++) flows = Math.max(flows, c.flow[i] + 1);
  // A live fetch is an offset run against the course server's policy (constant or variable rate).
  const scenario: ScenarioSpec =
    spec && 'workload' in spec ? spec : offsetServer(spec?.live.variable ?? false, [flow(spec?.live.scheme ?? 'unknown', spec?.live.params ?? {})]);
  const outcomes: FlowOutcome[] = Array.from({ length: Math.max(1, flows) }, (_, f) => ({
    flow: f,
    scheme: scenario.flows[f]?.scheme ?? 'unknown',
    startMs: scenario.flows[f]?.startMs ?? 0,
    finishedAt: -1,
    exact: null,
    bytesOnWire: 0,
    retransmissions: 0,
    fileBytes: scenario.flows[f]?.bytes ?? 0,
    offset: null,
  }));
  const requests = new Array(outcomes.length).fill(0);
  // The file's size as far as the log shows it: the end of the furthest chunk replied.
  const fileEnd = new Array(outcomes.length).fill(0);
  for (let i = 0; i < log.length; i++) {
    const o = outcomes[c.flow[i]];
    if (c.kind[i] === K.send) requests[c.flow[i]]++;
    if (c.kind[i] === K.reply) fileEnd[c.flow[i]] = Math.max(fileEnd[c.flow[i]], c.seq[i] + c.bytes[i]);
    if (c.kind[i] === K.retransmit) o.retransmissions++;
    if ((c.kind[i] === K.send || c.kind[i] === K.retransmit) && scenario.workload === 'reliable') o.bytesOnWire += c.bytes[i];
    if (c.kind[i] !== K.done) continue;
    o.finishedAt = c.t[i];
    if (scenario.workload === 'offset') {
      o.offset = { size: fileEnd[c.flow[i]], md5: '', result: c.seq[i] === 1, serverTime: c.value[i], penalty: c.window[i], elapsed: NaN, requests: requests[c.flow[i]], duplicates: 0, squishedReplies: 0, errors: [] };
    }
  }
  const run: RunResult = { spec: scenario, log, flows: outcomes, endMs, trace, inNetwork: 0 };
  return summarize(run);
}
