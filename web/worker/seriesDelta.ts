import { EventLog } from '../../shared/log/eventLog.ts';
import { runSeries, type RunSeries } from '../../shared/metrics/series.ts';

/** The series that grow by one point per event: a tick's new events only add to their ends. */
const APPENDED = ['sends', 'retransmits', 'acks', 'drops', 'window', 'timeouts', 'losses', 'marks', 'queueDelay'] as const;
type Appended = (typeof APPENDED)[number];

/**
 * What a live run's series gained since the last tick: the points of its new events, and the few series
 * that are not per event (squished periods, binned throughput, queue), which are small and sent whole.
 */
export interface SeriesDelta {
  endMs: number;
  appended: Record<Appended, Float64Array>;
  estimates: Record<string, Float64Array>;
  whole: Pick<RunSeries, 'binMs' | 'throughput' | 'capacity' | 'signalDelay' | 'queue' | 'squished'>;
}

/** The log's rows from `from` on, as a log of their own (views, no copies). */
function tail(log: EventLog, from: number): EventLog {
  const c = log.columns;
  const cut = <T extends { subarray(a: number): T }>(a: T) => a.subarray(from);
  return EventLog.from({ t: cut(c.t), kind: cut(c.kind), flow: cut(c.flow), seq: cut(c.seq), bytes: cut(c.bytes), value: cut(c.value), window: cut(c.window) }, log.length - from);
}

/** The delta from the log's first `from` rows to all of them, for a run that has lasted `endMs`. */
export function seriesDelta(log: EventLog, from: number, endMs: number): SeriesDelta {
  const fresh = runSeries(tail(log, from), endMs, null);
  const all = from === 0 ? fresh : runSeries(log, endMs, null);
  const appended = Object.fromEntries(APPENDED.map((k) => [k, fresh[k]])) as SeriesDelta['appended'];
  const { binMs, throughput, capacity, signalDelay, queue, squished } = all;
  return { endMs, appended, estimates: fresh.estimates, whole: { binMs, throughput, capacity, signalDelay, queue, squished } };
}

function concat(a: Float64Array | undefined, b: Float64Array): Float64Array {
  if (!a || a.length === 0) return b;
  const out = new Float64Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** A run's series after a delta (a new object; the old arrays are not changed). */
export function applyDelta(series: RunSeries, d: SeriesDelta): RunSeries {
  const next: RunSeries = { ...series, ...d.whole, endMs: d.endMs, estimates: { ...series.estimates } };
  for (const k of APPENDED) next[k] = concat(series[k], d.appended[k]);
  for (const [name, points] of Object.entries(d.estimates)) next.estimates[name] = concat(series.estimates[name], points);
  return next;
}

export function deltaBuffers(d: SeriesDelta): ArrayBuffer[] {
  const arrays = [...Object.values(d.appended), ...Object.values(d.estimates), d.whole.throughput, d.whole.signalDelay, d.whole.queue, d.whole.squished];
  if (d.whole.capacity) arrays.push(d.whole.capacity);
  return arrays.map((a) => a.buffer as ArrayBuffer);
}
