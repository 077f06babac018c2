/// <reference lib="webworker" />
import { findScheme } from '../../shared/controllers/registry.ts';
import { checkParams } from '../../shared/controllers/types.ts';
import { parseTraceCsv } from '../../shared/csv/trace.ts';
import { liveFetch } from '../../shared/endpoints/liveFetch.ts';
import { EventLog } from '../../shared/log/eventLog.ts';
import { summarizeLog } from '../../shared/metrics/logSummary.ts';
import { niceBin, runSeries, seriesBuffers } from '../../shared/metrics/series.ts';
import { summarize } from '../../shared/metrics/summary.ts';
import { flowSeries } from '../../shared/metrics/fairness.ts';
import { fitLatency, runMeasurement } from '../../shared/scenarios/measurement.ts';
import { K } from '../../shared/log/kinds.ts';
import { FRAME_DATA, FRAME_SENT, unframe } from '../../shared/bridge/protocol.ts';
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

/** Each flow's window over time, (t, packets) pairs from its ACK and timeout rows. */
function windowsByFlow(log: EventLog, flows: number): Float64Array[] {
  const lists: number[][] = Array.from({ length: flows }, () => []);
  const c = log.columns;
  for (let i = 0; i < log.length; i++) if (c.kind[i] === K.ack || c.kind[i] === K.timeout) lists[c.flow[i]]?.push(c.t[i], c.window[i]);
  return lists.map((l) => Float64Array.from(l));
}

function viewOf(spec: RunView['spec'], log: EventLog, endMs: number, trace: Trace | null, summary: RunView['summary'], source: RunView['source'], live: RunView['live'], wallMs: number, spans?: { from: number[]; until: number[] }): [RunView, Transferable[]] {
  const once = spec && 'workload' in spec ? spec.link.once : false;
  const series = runSeries(log, endMs, trace, once);
  const columns = log.compact();
  let flows: RunView['flows'] = null;
  const buffers: ArrayBuffer[] = [...seriesBuffers(series), ...Object.values(columns).map((c) => c.buffer as ArrayBuffer)];
  if (spans && spans.from.length > 1) {
    const fs = flowSeries(log, spans.from.length, niceBin(endMs, 60), endMs, spans.from, spans.until);
    flows = { ...fs, windows: windowsByFlow(log, spans.from.length) };
    for (const a of [fs.t, fs.jain, ...fs.perFlow, ...flows.windows]) buffers.push(a.buffer as ArrayBuffer);
  }
  const view: RunView = { spec, summary, series, log: columns, live, wallMs, source, flows };
  return [view, buffers];
}

async function simulate(spec: ScenarioSpec) {
  if (spec.link.kind === 'trace') await Promise.all([spec.link.trace, spec.link.ackTrace].filter((n) => n !== '').map(loadTrace));
  return runScenario(spec, (name) => {
    const t = traces.get(name);
    if (!t) throw new Error(`no trace named ${name}`);
    return t;
  });
}

async function run(id: number, spec: ScenarioSpec): Promise<void> {
  const t0 = performance.now();
  const result = await simulate(spec);
  const summary = summarize(result);
  const spans = { from: result.flows.map((f) => f.startMs), until: result.flows.map((f) => (f.finishedAt >= 0 ? f.finishedAt : Infinity)) };
  const [view, transfer] = viewOf(spec, result.log, result.endMs, result.trace, summary, 'simulated', null, performance.now() - t0, spans);
  post({ id, kind: 'view', view, final: true }, transfer);
}

/** A run whose figures are all that is wanted (a sweep point, a matrix row). */
async function summaryOnly(id: number, spec: ScenarioSpec): Promise<void> {
  const t0 = performance.now();
  const summary = summarize(await simulate(spec));
  post({ id, kind: 'summary', summary, wallMs: performance.now() - t0 });
}

/**
 * Ping-pong through the bridge to the echo server over TCP: one message at a time, each timed by the
 * relay's clock from when it went out to when its last byte came back, so the WebSocket hop drops out.
 */
async function measureLive(id: number, relay: string, target: string, sizes: number[], repeats: number): Promise<void> {
  const ws = new WebSocket(bridgeUrl(relay.replace(/^http/, 'ws'), target, 'tcp', true));
  ws.binaryType = 'arraybuffer';
  const samples: { size: number; rttMs: number }[] = [];
  let sentAt = NaN;
  let expect = 0;
  let got = 0;
  let next: (() => void) | null = null;
  const failed = new Promise<never>((_, reject) => {
    ws.onmessage = (e) => {
      if (typeof e.data === 'string') {
        const m = JSON.parse(e.data);
        if (m.type === 'ready') next?.();
        if (m.type === 'error' && m.fatal) reject(new Error(m.message));
        return;
      }
      const f = unframe(new Uint8Array(e.data as ArrayBuffer));
      if (!f) return;
      if (f.type === FRAME_SENT) sentAt = f.relayTime;
      if (f.type === FRAME_DATA) {
        got += f.payload.length;
        if (got >= expect) {
          samples.push({ size: expect, rttMs: f.relayTime - sentAt });
          next?.();
        }
      }
    };
    ws.onerror = () => reject(new Error('the relay cannot be reached'));
  });
  const step = () => new Promise<void>((resolve) => (next = resolve));
  await Promise.race([step(), failed]);
  for (const size of sizes) {
    for (let r = 0; r < repeats; r++) {
      const m = new Uint8Array(size);
      new DataView(m.buffer).setUint16(0, size);
      expect = size;
      got = 0;
      const done = step();
      ws.send(m);
      await Promise.race([done, failed]);
    }
  }
  ws.close();
  post({ id, kind: 'measured', result: { samples, fit: fitLatency(samples) } });
}

async function replay(id: number, csv: string): Promise<void> {
  const t0 = performance.now();
  const { log, spec } = parseTraceCsv(csv);
  const lastEvent = log.length ? log.columns.t[log.length - 1] : 0;
  let trace: Trace | null = null;
  if (spec && 'workload' in spec && spec.link?.kind === 'trace') trace = await loadTrace(spec.link.trace).catch(() => null);
  // A contest run lasts its whole duration even when the last packet came earlier.
  const runEnd = spec && 'workload' in spec && spec.workload === 'contest' ? spec.durationMs : lastEvent;
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
      case 'summary':
        return await summaryOnly(m.id, m.spec);
      case 'measure':
        return post({ id: m.id, kind: 'measured', result: runMeasurement(m.spec) });
      case 'measure-live':
        return await measureLive(m.id, m.relay, m.target, m.sizes, m.repeats);
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
