/// <reference lib="webworker" />
import { formatIntervalCsv } from '../../shared/csv/intervals.ts';
import { formatTraceCsv } from '../../shared/csv/trace.ts';
import { EventLog } from '../../shared/log/eventLog.ts';
import { summarizeLog } from '../../shared/metrics/logSummary.ts';
import { runSeries, seriesBuffers } from '../../shared/metrics/series.ts';
import { summarize } from '../../shared/metrics/summary.ts';
import { runMeasurement } from '../../shared/scenarios/measurement.ts';
import { measureLive } from './measureLive.ts';
import { type RunResult, startScenario } from '../../shared/scenarios/run.ts';
import { type ScenarioSpec, tracesOf } from '../../shared/scenarios/spec.ts';
import { parseTrace, tracePeriod } from '../../shared/trace/mahimahi.ts';
import { type LiveStart, relayPolicy, startLive } from './liveRun.ts';
import { previewWaits } from './previewWait.ts';
import { PREVIEW_WAIT_MS, type RunView, type WorkerRequest, type WorkerResponse } from './protocol.ts';
import { importRun } from './replay.ts';
import { keepUpload, loadTrace, traceArrived } from './traceStore.ts';
import { dotBuffers, handOverDots, type ViewSource, viewOf, type WholeDots, wholeDotsOf } from './runView.ts';
import { deltaBuffers, seriesDelta } from './seriesDelta.ts';
import { catalogueFor, checkCode, watchRun } from './userModule.ts';
import { fromPage, toPage } from './host.ts';
import './sandbox.ts';

declare const self: DedicatedWorkerGlobalScope;

const post = (m: WorkerResponse, transfer: Transferable[] = []) => toPage(m, transfer);

/**
 * The latest run this worker drew (a side's run, growing while live): its log stays here for exports, and
 * the whole dots its view carries coarse copies of, for a zoom. `id`: the request it answered.
 */
let kept: { id: number; log: EventLog; spec: RunView['spec']; endMs: number; binMs: number; whole: WholeDots | null } | null = null;

/** Makes a run's view, keeping what the page may ask of the run later. */
function viewKept(id: number, r: ViewSource, spans?: { from: number[]; until: number[] }): [RunView, Transferable[]] {
  const { view, transfer, whole } = viewOf(r, spans);
  kept = { id, log: r.log, spec: r.spec, endMs: r.endMs, binMs: view.series.binMs, whole };
  return [view, transfer];
}

/**
 * The whole dots of run `run`, handed over (the page asks once for a view): the kept run's, or, given its
 * spec, those of the run made again.
 */
async function wholeDots(id: number, run: number, spec?: ScenarioSpec): Promise<WholeDots> {
  const whole = handOverDots(kept, run);
  if (whole) return whole;
  if (!spec) throw new Error('that run is no longer kept: a newer one replaced it');
  const result = (await watchRun(id, spec, undefined, () => simulate(spec)))!;
  const dots = wholeDotsOf(result.log, result.endMs, result.trace, spec);
  result.log.giveBack();
  return dots;
}

function exportCsv(what: 'trace' | 'intervals'): string {
  if (!kept) throw new Error('there is no run to export yet');
  return what === 'trace' ? formatTraceCsv(kept.log, kept.spec) : formatIntervalCsv(kept.log, kept.binMs, kept.endMs);
}

/** Resolves at the next task, after messages that arrived meanwhile have been handled. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** Wall time a run computes before it looks for a newer request, ms. */
const SLICE_MS = 15;

/** Steps (seconds of simulated time) of a run's preview: the playback starts at 0 s, at ten times real time. */
const PREVIEW_STEPS = 1;

/**
 * Runs a spec to the end, or, when `stale` is given, until it says a newer request replaced this one
 * (then null): between slices of a few milliseconds the worker takes its messages. `preview` is handed the
 * run so far once its first seconds are simulated.
 */
async function simulate(spec: ScenarioSpec, stale?: () => boolean, preview?: (sofar: RunResult) => Promise<void>): Promise<RunResult | null> {
  const names = tracesOf(spec);
  const loaded = await Promise.all(names.map(loadTrace));
  // the user's code last: from its first line to the run's end nothing waits on the network, so its beats keep coming
  const schemes = await catalogueFor(spec.code);
  const traces = (name: string) => {
    const t = loaded[names.indexOf(name)];
    if (!t) throw new Error(`no trace named ${name}`);
    return t;
  };
  const run = startScenario(spec, traces, schemes);
  let sliceStart = performance.now();
  let steps = 0;
  while (!run.advance()) {
    if (++steps === PREVIEW_STEPS && preview) await preview(run.result());
    if (!stale || performance.now() - sliceStart < SLICE_MS) continue;
    await nextTask();
    if (stale()) return null;
    sliceStart = performance.now();
  }
  return run.result();
}

/**
 * The newest run asked of this worker. A slider drag asks for a run per step; one still waiting or under
 * way when a newer one arrives is dropped, as the page would drop its answer anyway.
 */
let newestRun = 0;

/**
 * Sends the series of a run's first seconds, on the whole run's time axis (so the page's axes stand when the
 * rest arrives); settles once the page has drawn them, or after PREVIEW_WAIT_MS.
 */
function postPreview(id: number, spec: ScenarioSpec, sofar: RunResult): Promise<void> {
  const once = 'workload' in spec ? spec.link.once : false;
  const series = runSeries(sofar.log, Math.max(spec.durationMs, sofar.endMs), sofar.trace, once);
  post({ id, kind: 'preview', series }, seriesBuffers(series));
  return previews.wait(id);
}

const previews = previewWaits(PREVIEW_WAIT_MS);

/**
 * Whether a request that came while the run finished replaces it (a drag's next step), taken at the next
 * task: what is left of the run (its figures, its series) is not worked out, nor sent for the page to
 * drop, and its log goes back for the next run.
 */
async function replaced(id: number, result: RunResult): Promise<boolean> {
  await nextTask();
  if (id === newestRun) return false;
  result.log.giveBack();
  return true;
}

async function run(id: number, spec: ScenarioSpec, probeFrom?: number, check = false, preview = false): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  if (id !== newestRun) return post({ id, kind: 'superseded' });
  const t0 = performance.now();
  const early = preview ? (sofar: RunResult) => postPreview(id, spec, sofar) : undefined;
  const result = await watchRun(id, spec, probeFrom, async () => {
    if (check && !(await checked(id, spec.code!))) return 'failed';
    return simulate(spec, () => id !== newestRun, early);
  });
  if (result === 'failed') return;
  if (!result || (await replaced(id, result))) return post({ id, kind: 'superseded' });
  const summary = summarize(result);
  if (await replaced(id, result)) return post({ id, kind: 'superseded' });
  const spans = { from: result.flows.map((f) => f.startMs), until: result.flows.map((f) => (f.finishedAt >= 0 ? f.finishedAt : Infinity)) };
  const source = { spec, log: result.log, endMs: result.endMs, trace: result.trace, summary, source: 'simulated', live: null, wallMs: performance.now() - t0 } as const;
  const [view, transfer] = viewKept(id, source, spans);
  post({ id, kind: 'view', view, final: true }, transfer);
  // the run drawn before this one is kept no more: its log's columns go to the next run (a drag asks one per step)
  lastDrawn?.giveBack();
  lastDrawn = result.log;
}

/** The log of the last simulated run drawn, which `kept` may still hold for exports. */
let lastDrawn: EventLog | null = null;

/**
 * New code, checked in the pass that runs it (the run then finds it loaded): the page learns what it
 * declares before the run's view, or where it fails instead of one.
 */
async function checked(id: number, code: string): Promise<boolean> {
  const result = await checkCode(code);
  post({ id, kind: 'checked', result });
  return result.ok;
}

/** A run whose figures are all that is wanted (a sweep point, a matrix row). */
async function summaryOnly(id: number, spec: ScenarioSpec, probeFrom?: number): Promise<void> {
  const t0 = performance.now();
  const result = (await watchRun(id, spec, probeFrom, () => simulate(spec)))!;
  const summary = summarize(result);
  result.log.giveBack();
  post({ id, kind: 'summary', summary, wallMs: performance.now() - t0 });
}

async function replay(id: number, csv: string): Promise<void> {
  const t0 = performance.now();
  const r = await importRun(csv, (name) => loadTrace(name).catch(() => null));
  const [view, transfer] = viewKept(id, { ...r, source: 'imported', live: null, wallMs: performance.now() - t0 });
  post({ id, kind: 'view', view, final: true }, transfer);
}

let cancelLive: (() => void) | null = null;

/** A live fetch, its controller in the sandbox frame at the end of `controller` (liveRun.ts): this worker draws it. */
async function live(id: number, m: LiveStart, controller: MessagePort): Promise<void> {
  const log = new EventLog();
  const run = await startLive(m, log, await relayPolicy(m), controller);
  cancelLive = run.cancel;
  const t0 = performance.now();
  const snapshot = (final: boolean, result: RunView['live']) => {
    const endMs = Math.max(1, run.now());
    const summary = summarizeLog(log, run.spec, endMs, null);
    const [view, transfer] = viewKept(id, { spec: run.spec, log, endMs, trace: null, summary, source: 'live', live: result, wallMs: performance.now() - t0 });
    post({ id, kind: 'view', view, final }, transfer);
    shown = log.length;
  };
  // The first tick draws the whole view; later ones send what the series gained since (the log stays here).
  let shown = -1;
  const tick = () => {
    if (shown < 0) return snapshot(false, null);
    const endMs = Math.max(1, run.now());
    const delta = seriesDelta(log, shown, endMs);
    shown = log.length;
    kept = { id, log, spec: run.spec, endMs, binMs: delta.whole.binMs, whole: {} };
    post({ id, kind: 'delta', delta, summary: summarizeLog(log, run.spec, endMs, null), wallMs: performance.now() - t0 }, deltaBuffers(delta));
  };
  // Both kinds of tick run once now, while the clocks are being matched: their first, unoptimised runs
  // would otherwise stall the controller mid-fetch for longer than the relay's lead.
  tick();
  tick();
  const timer = setInterval(tick, 150);
  try {
    const end = await run.done;
    // Stopped, or the relay went away: the run so far stays drawn, and the page says why.
    snapshot(!end.stopped, end.result);
    if (end.stopped) post({ id, kind: 'error', message: `live fetch ended: ${end.stopped}` });
  } finally {
    clearInterval(timer);
    cancelLive = null;
  }
}

fromPage(async (m: WorkerRequest) => {
  if (m.kind === 'run') newestRun = m.id;
  try {
    switch (m.kind) {
      case 'run':
        return await run(m.id, m.spec, m.probeFrom, m.check, m.preview);
      case 'replay':
        return await replay(m.id, m.csv);
      case 'summary':
        return await summaryOnly(m.id, m.spec, m.probeFrom);
      case 'measure':
        return post({ id: m.id, kind: 'measured', result: runMeasurement(m.spec) });
      case 'measure-live':
        return post({ id: m.id, kind: 'measured', result: await measureLive(m.relay, m.target, m.sizes, m.repeats) });
      case 'upload': {
        const t = parseTrace(m.text, m.name);
        keepUpload(m.name, t);
        return post({ id: m.id, kind: 'uploaded', name: m.name, durationMs: tracePeriod(t), opportunities: t.times.length });
      }
      case 'live': {
        const { id, kind, controller, ...start } = m;
        return await live(id, start, controller);
      }
      case 'export':
        return post({ id: m.id, kind: 'exported', text: exportCsv(m.what) });
      case 'dots': {
        const dots = await wholeDots(m.id, m.run, m.spec);
        return post({ id: m.id, kind: 'dots', dots }, dotBuffers(dots));
      }
      case 'preview-shown':
        return previews.shown(m.id);
      case 'cancel':
        cancelLive?.();
        return;
      case 'trace':
        return traceArrived(m);
    }
  } catch (err) {
    post({ id: m.id, kind: 'error', message: (err as Error).message });
  }
});
