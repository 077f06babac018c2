import type { EventLog } from '../../shared/log/eventLog.ts';
import { K, KINDS } from '../../shared/log/kinds.ts';
import type { Run } from '../../shared/formats/runFacts.ts';
import { contest, flow, MATRIX, matrixRun, offsetServer } from '../../shared/scenarios/presets.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import type { ScenarioSpec } from '../../shared/scenarios/spec.ts';
import { loadTrace } from '../../server/traces.ts';

/** A run of the model, as the formats take it. */
export function modelRun(spec: ScenarioSpec): Run {
  return { log: runScenario(spec, loadTrace).log, spec };
}

/** Reno through the matrix row that drops, duplicates and delays: retransmissions, a timeout and losses. */
export const lossyReliable = () => modelRun(matrixRun(MATRIX.find((r) => r.drop === 10 && r.duplicate === 10)!, 'reno'));
/** AIMD on 20 s of the Verizon LTE trace, its queue limited so that it drops. */
export function shortContest(): Run {
  const spec = contest('Verizon-LTE-short', [flow('aimd')]);
  return modelRun({ ...spec, durationMs: 20_000, link: { ...spec.link, queue: { kind: 'packets', limit: 40, discipline: { kind: 'drop-tail' } } } });
}
/** The token pacer fetching 100 KB from the variable-rate server: requests, replies, squishes. */
export const offsetFetch = () => modelRun(offsetServer(true, [flow('token-pacer', {}, 0, 100_000)]));

/** The rows of the given kinds, each as [t, flow, kind, seq, bytes] and the fields asked for. */
export function rows(log: EventLog, kinds: readonly number[], fields: ('value' | 'window')[] = []): (number | string)[][] {
  const c = log.columns;
  const out: (number | string)[][] = [];
  for (let i = 0; i < log.length; i++) {
    if (!kinds.includes(c.kind[i])) continue;
    out.push([c.t[i], c.flow[i], KINDS[c.kind[i]], c.seq[i], c.bytes[i], ...fields.map((f) => c[f][i])]);
  }
  return out;
}

export { K };
