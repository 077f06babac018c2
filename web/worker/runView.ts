import type { EventLog } from '../../shared/log/eventLog.ts';
import { K } from '../../shared/log/kinds.ts';
import { flowSeries } from '../../shared/metrics/fairness.ts';
import { DOT_SERIES, type DotSeries, niceBin, runSeries, seriesBuffers } from '../../shared/metrics/series.ts';
import { coarseDots, thinSteps } from '../../shared/metrics/thin.ts';
import type { ScenarioSpec } from '../../shared/scenarios/spec.ts';
import type { Trace } from '../../shared/trace/mahimahi.ts';
import type { RunView } from './protocol.ts';

/** Time buckets the window line keeps four points of: several per pixel of the widest chart, zoomed a few times. */
const WINDOW_BUCKETS = 4000;
/** The grid a dots series' coarse copy keeps a point per cell of (time by value): finer than a whole run's chart. */
export const DOT_COLUMNS = 16_000;
export const DOT_ROWS = 4096;

/** A run's dots series, whole, that its view carries coarse copies of. */
export type WholeDots = Partial<Record<DotSeries, Float64Array>>;

/** What a run's view is made of: its log and the figures worked out from it. */
export interface ViewSource extends Pick<RunView, 'spec' | 'summary' | 'source' | 'live' | 'wallMs'> {
  log: EventLog;
  endMs: number;
  trace: Trace | null;
}

/** Each flow's window over time, (t, packets) pairs from its ACK and timeout rows. */
function windowsByFlow(log: EventLog, flows: number): Float64Array[] {
  const lists: number[][] = Array.from({ length: flows }, () => []);
  const c = log.columns;
  for (let i = 0; i < log.length; i++) if (c.kind[i] === K.ack || c.kind[i] === K.timeout) lists[c.flow[i]]?.push(c.t[i], c.window[i]);
  return lists.map((l) => Float64Array.from(l));
}

/**
 * A run as the page draws it, the buffers to transfer with it, and the whole dots it leaves out. The
 * window has a point per send and per ACK; a few per pixel draw the same line. The dots, a point per
 * packet, go as coarse copies, which draw the whole run's charts alike: the whole series are megabytes a
 * view would carry across to the page at every step of a drag, and only a zoom to a few seconds needs
 * them (the page asks then). A live run's series grow by deltas, so they go whole. `spans`: each flow's
 * start and end, for the fairness series of several flows.
 */
export function viewOf(r: ViewSource, spans?: { from: number[]; until: number[] }): { view: RunView; transfer: ArrayBuffer[]; whole: WholeDots } {
  const { spec, log, endMs } = r;
  const once = spec && 'workload' in spec ? spec.link.once : false;
  const series = runSeries(log, endMs, r.trace, once);
  const whole: WholeDots = {};
  if (r.source !== 'live') {
    series.window = thinSteps(series.window, 0, endMs, WINDOW_BUCKETS);
    series.coarse = {};
    for (const k of DOT_SERIES) {
      const c = coarseDots(series[k], 0, endMs, DOT_COLUMNS, DOT_ROWS);
      if (!c) continue;
      series.coarse[k] = c;
      whole[k] = series[k];
      series[k] = c.data;
      series.coarseOnly = true;
    }
  }
  let flows: RunView['flows'] = null;
  const transfer = seriesBuffers(series);
  if (spans && spans.from.length > 1) {
    const fs = flowSeries(log, spans.from.length, niceBin(endMs, 60), endMs, spans.from, spans.until);
    flows = { ...fs, windows: windowsByFlow(log, spans.from.length) };
    for (const a of [fs.t, fs.jain, ...fs.perFlow, ...flows.windows]) transfer.push(a.buffer as ArrayBuffer);
  }
  const view: RunView = { spec, summary: r.summary, series, live: r.live, wallMs: r.wallMs, source: r.source, flows };
  return { view, transfer, whole };
}

/** A run's dots series whole: those its view's coarse copies stand for, and the rest. */
export function wholeDotsOf(log: EventLog, endMs: number, trace: Trace | null, spec: ScenarioSpec): WholeDots {
  const series = runSeries(log, endMs, trace, spec.link.once);
  return Object.fromEntries(DOT_SERIES.map((k) => [k, series[k]]));
}

/** The whole dots `kept` holds, handed over once: null when it is not run `run`'s, or they went already. */
export function handOverDots(kept: { id: number; whole: WholeDots | null } | null, run: number): WholeDots | null {
  if (kept?.id !== run || !kept.whole) return null;
  const { whole } = kept;
  kept.whole = null;
  return whole;
}

/** The buffers of whole dots, each once, to hand them over. */
export const dotBuffers = (dots: WholeDots) => [...new Set(Object.values(dots).map((d) => d.buffer as ArrayBuffer))];

/** A view with the whole dots in place of the coarse copies it came with. */
export const withWholeDots = (view: RunView, whole: WholeDots): RunView => ({ ...view, series: { ...view.series, ...whole, coarseOnly: undefined } });
