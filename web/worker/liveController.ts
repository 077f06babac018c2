/// <reference lib="webworker" />
import type { EventColumns } from '../../shared/log/eventLog.ts';
import { EventLog } from '../../shared/log/eventLog.ts';
import { catalogueFor } from './userModule.ts';
import { runLiveFetch, type LiveEnd, type LivePolicy, type LiveStart } from './liveRun.ts';

/**
 * The live controller's own worker: it runs nothing but the fetch, so no chart or summary computed for
 * the page delays a send past its head start. Every ROWS_MS it hands the rows logged since to the
 * worker that draws (liveRun.ts's startLive), with the run's clock then.
 */
declare const self: DedicatedWorkerGlobalScope;

export type ToController = { kind: 'start'; start: LiveStart; asked: LivePolicy['asked'] } | { kind: 'cancel' };
export type FromController = { kind: 'rows'; columns: EventColumns; now: number } | { kind: 'end'; end: LiveEnd; columns: EventColumns; now: number } | { kind: 'failed'; message: string };

const ROWS_MS = 100;
let cancel: (() => void) | null = null;

/** The rows from `from` on, copied into their own buffers (to be transferred). */
function rowsSince(log: EventLog, from: number): EventColumns {
  const c = log.columns;
  return { t: c.t.slice(from), kind: c.kind.slice(from), flow: c.flow.slice(from), seq: c.seq.slice(from), bytes: c.bytes.slice(from), value: c.value.slice(from), window: c.window.slice(from) };
}

const buffersOf = (c: EventColumns) => Object.values(c).map((a: ArrayBufferView) => a.buffer as ArrayBuffer);

async function start(m: LiveStart, asked: LivePolicy['asked']): Promise<void> {
  const schemes = await catalogueFor(m.code);
  const log = new EventLog();
  const run = runLiveFetch(m, asked, log, schemes);
  cancel = run.cancel;
  let handed = 0;
  const hand = (): EventColumns => {
    const columns = rowsSince(log, handed);
    handed = log.length;
    return columns;
  };
  const timer = setInterval(() => {
    if (log.length === handed) return;
    const columns = hand();
    self.postMessage({ kind: 'rows', columns, now: run.now() } satisfies FromController, buffersOf(columns));
  }, ROWS_MS);
  try {
    const end = await run.done;
    const columns = hand();
    self.postMessage({ kind: 'end', end, columns, now: run.now() } satisfies FromController, buffersOf(columns));
  } finally {
    clearInterval(timer);
    cancel = null;
  }
}

self.onmessage = (e: MessageEvent<ToController>) => {
  const m = e.data;
  if (m.kind === 'cancel') return cancel?.();
  start(m.start, m.asked).catch((err: Error) => self.postMessage({ kind: 'failed', message: err.message } satisfies FromController));
};
