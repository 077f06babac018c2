/// <reference lib="webworker" />
import { findScheme } from '../../shared/controllers/registry.ts';
import { checkParams } from '../../shared/controllers/types.ts';
import { parseTraceCsv } from '../../shared/csv/trace.ts';
import { liveFetch } from '../../shared/endpoints/liveFetch.ts';
import { EventLog } from '../../shared/log/eventLog.ts';
import { summarizeLog } from '../../shared/metrics/logSummary.ts';
import { runSeries, seriesBuffers } from '../../shared/metrics/series.ts';
import { summarize } from '../../shared/metrics/summary.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import type { LiveRun, ScenarioSpec } from '../../shared/scenarios/spec.ts';
import { WallClock } from '../../shared/sim/wallClock.ts';
import { parseTrace, tracePeriod, type Trace } from '../../shared/trace/mahimahi.ts';
import { bridgeTransport, bridgeUrl, type WebSocketLike } from '../live/bridgeSession.ts';
import type { RunView, WorkerRequest, WorkerResponse } from './protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

/** Bundled traces, fetched once from the app's own origin; uploaded ones as the page handed them over. */
const traces = new Map<string, Trace>();
const pending = new Map<string, Promise<Trace>>();

function loadTrace(name: string): Promise<Trace> {
  const have = traces.get(name);
  if (have) return Promise.resolve(have);
  let p = pending.get(name);
  if (!p) {
    p = fetch(new URL(`/traces/${encodeURIComponent(name)}`, self.location.origin)).then(async (r) => {
      if (!r.ok) throw new Error(`the trace ${name} could not be loaded (${r.status})`);
      const t = parseTrace(await r.text(), name);
      traces.set(name, t);
      return t;
    });
    pending.set(name, p);
  }
  return p;
}

const post = (m: WorkerResponse, transfer: Transferable[] = []) => self.postMessage(m, transfer);

function viewOf(spec: RunView['spec'], log: EventLog, endMs: number, trace: Trace | null, summary: RunView['summary'], source: RunView['source'], live: RunView['live'], wallMs: number): [RunView, Transferable[]] {
  const once = spec && 'workload' in spec ? spec.link.once : false;
  const series = runSeries(log, endMs, trace, once);
  const columns = log.compact();
  const view: RunView = { spec, summary, series, log: columns, live, wallMs, source };
  return [view, [...seriesBuffers(series), ...Object.values(columns).map((c) => c.buffer as ArrayBuffer)]];
}

async function run(id: number, spec: ScenarioSpec): Promise<void> {
  if (spec.link.kind === 'trace') await Promise.all([loadTrace(spec.link.trace), loadTrace(spec.link.ackTrace)]);
  const t0 = performance.now();
  const result = runScenario(spec, (name) => {
    const t = traces.get(name);
    if (!t) throw new Error(`no trace named ${name}`);
    return t;
  });
  const summary = summarize(result);
  const [view, transfer] = viewOf(spec, result.log, result.endMs, result.trace, summary, 'simulated', null, performance.now() - t0);
  post({ id, kind: 'view', view, final: true }, transfer);
}

async function replay(id: number, csv: string): Promise<void> {
  const t0 = performance.now();
  const { log, spec } = parseTraceCsv(csv);
  const c = log.columns;
  const endMs = log.length ? Math.max(c.t[log.length - 1], spec && 'workload' in spec ? 0 : 0) : 0;
  let trace: Trace | null = null;
  if (spec && 'workload' in spec && spec.link?.kind === 'trace') trace = await loadTrace(spec.link.trace).catch(() => null);
  const runEnd = spec && 'workload' in spec && spec.workload === 'contest' ? spec.durationMs : endMs;
  const summary = summarizeLog(log, spec, runEnd, trace);
  const [view, transfer] = viewOf(spec, log, runEnd, trace, summary, 'imported', null, performance.now() - t0);
  post({ id, kind: 'view', view, final: true }, transfer);
}

/** A MessageChannel round trip: the browser's "run soon, after pending events" for the wall clock. */
function yieldViaChannel(): (f: () => void) => void {
  const ch = new MessageChannel();
  const queue: (() => void)[] = [];
  ch.port1.onmessage = () => queue.shift()?.();
  return (f) => {
    queue.push(f);
    ch.port2.postMessage(0);
  };
}

let cancelLive: (() => void) | null = null;

async function live(id: number, relay: string, target: string, schemeId: string, params: Record<string, string | number>, variable: boolean): Promise<void> {
  const scheme = findScheme(schemeId);
  if (!scheme) throw new Error(`unknown scheme ${schemeId}`);
  const checked = checkParams(scheme, params);
  if ('error' in checked) throw new Error(checked.error);
  const ws = new WebSocket(bridgeUrl(relay.replace(/^http/, 'ws'), target));
  const log = new EventLog();
  const clock = new WallClock(yieldViaChannel());
  const spec: LiveRun = { live: { server: target, scheme: schemeId, params: checked.values, via: 'bridge', variable } };
  const t0 = performance.now();
  // Datagrams are plain ArrayBuffer-backed bytes; the DOM's send type is only stricter on paper.
  const run = liveFetch(bridgeTransport(ws as unknown as WebSocketLike), clock, { scheme, params: checked.values, id: 'pipefill@browser', giveUpMs: 120_000, log });
  cancelLive = run.cancel;
  const snapshot = (final: boolean, result: RunView['live']) => {
    const endMs = Math.max(1, clock.now);
    const [view, transfer] = viewOf(spec, log, endMs, null, summarizeLog(log, spec, endMs, null), 'live', result, performance.now() - t0);
    post({ id, kind: 'view', view, final }, transfer);
  };
  const timer = setInterval(() => snapshot(false, null), 150);
  try {
    const outcome = await run.done;
    snapshot(true, outcome.result);
  } finally {
    clearInterval(timer);
    cancelLive = null;
  }
}

self.onmessage = async (e: MessageEvent<WorkerRequest>) => {
  const m = e.data;
  try {
    switch (m.kind) {
      case 'run':
        return await run(m.id, m.spec);
      case 'replay':
        return await replay(m.id, m.csv);
      case 'upload': {
        const t = parseTrace(m.text, m.name);
        traces.set(`upload:${m.name}`, t);
        return post({ id: m.id, kind: 'uploaded', name: m.name, durationMs: tracePeriod(t), opportunities: t.times.length });
      }
      case 'live':
        return await live(m.id, m.relay, m.target, m.scheme, m.params, m.variable);
      case 'cancel':
        cancelLive?.();
        return;
    }
  } catch (err) {
    post({ id: m.id, kind: 'error', message: (err as Error).message });
  }
};
