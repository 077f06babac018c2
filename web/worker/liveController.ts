/// <reference lib="webworker" />
import type { EventColumns } from '../../shared/log/eventLog.ts';
import { EventLog } from '../../shared/log/eventLog.ts';
import { findScheme, type SchemeCatalogue } from '../../shared/controllers/registry.ts';
import { checkParams, type ParamValues, type Scheme } from '../../shared/controllers/types.ts';
import { ANONYMOUS_ID, isStudentId } from '../../shared/relay/studentId.ts';
import { FetchStopped } from '../../live/liveFetch.ts';
import { browserClock } from '../live/browserClock.ts';
import type { WebSocketLike } from '../live/bridgeSession.ts';
import { bridgeFetch } from '../live/bridgeFetch.ts';
import { fromPage } from './host.ts';
import { catalogueFor } from './userModule.ts';
import type { LiveEnd, LiveStart } from './liveRun.ts';
import { PortSocket } from './socketPort.ts';
import './sandbox.ts';

declare const self: DedicatedWorkerGlobalScope;

/**
 * The live fetch's controller, in a worker of the sandbox frame (web/worker/sandboxHost.ts): the scheme's
 * code, a link's own among them, runs here with no network. Its WebSocket is a port to the worker of the
 * page's origin that holds the real one (liveSocket.ts). It runs nothing but the fetch, so no chart or
 * summary computed for the page delays a send past its head start; every ROWS_MS it hands the rows logged
 * since to the worker that draws (liveRun.ts's startLive), with the run's clock then.
 *
 * The page hands this worker a port to the worker that draws ('run'); all else goes over that port.
 */
export type ToController = { kind: 'start'; start: LiveStart; socket: MessagePort } | { kind: 'cancel' };
export type FromController =
  | { kind: 'checked'; params: ParamValues }
  | { kind: 'rows'; columns: EventColumns; now: number }
  | { kind: 'end'; end: LiveEnd; columns: EventColumns; now: number }
  | { kind: 'failed'; message: string };
/** What the page sends this worker first. */
export type ControllerRun = { kind: 'run'; port: MessagePort };

const ROWS_MS = 100;

function checked(m: LiveStart, schemes: SchemeCatalogue): { scheme: Scheme; params: ParamValues } {
  const scheme = findScheme(m.scheme, schemes);
  if (!scheme) throw new Error(`unknown scheme ${m.scheme}`);
  const c = checkParams(scheme, m.params);
  if ('error' in c) throw new Error(c.error);
  return { scheme, params: c.values };
}

const plain = (message: string) => (message === 'cancelled' ? 'stopped' : message);

/**
 * The controller fetching through the bridge, deciding on its worker's clock and each datagram leaving the
 * relay a few milliseconds after it was sent, as spaced as it was sent (web/live/bridgeFetch.ts: from when
 * the hop is quiet, its timeouts waiting for the relay's news). Not on the relay's clock
 * (web/live/timedFetch.ts): measured on a loaded machine, deciding ahead of time made replies held up on
 * the WebSocket look lost to the token pacer, and it collapsed (over 60 s for 1 MB, against 3.3 s here).
 * `now` is the run's clock; `params`, the scheme's values as checked.
 */
function runLiveFetch(m: LiveStart, ws: WebSocketLike, log: EventLog, schemes: SchemeCatalogue) {
  const { scheme, params } = checked(m, schemes);
  const wall = browserClock();
  const run = bridgeFetch(ws, wall, { scheme, params, id: m.submitAs && isStudentId(m.submitAs) ? m.submitAs : ANONYMOUS_ID, giveUpMs: 120_000, log });
  const done = run.done.then(
    (o): LiveEnd => ({ result: o.result, stopped: o.result.result === null ? 'the server sent no Result' : null }),
    (e: Error): LiveEnd => {
      if (e instanceof FetchStopped) return { result: e.outcome.result, stopped: plain(e.message) };
      throw e;
    },
  );
  return { params, now: () => wall.now, done, cancel: run.cancel };
}

let cancel: (() => void) | null = null;

/** The rows from `from` on, copied into their own buffers (to be transferred). */
function rowsSince(log: EventLog, from: number): EventColumns {
  const c = log.columns;
  return { t: c.t.slice(from), kind: c.kind.slice(from), flow: c.flow.slice(from), seq: c.seq.slice(from), bytes: c.bytes.slice(from), value: c.value.slice(from), window: c.window.slice(from) };
}

const buffersOf = (c: EventColumns) => Object.values(c).map((a: ArrayBufferView) => a.buffer as ArrayBuffer);

async function start(m: LiveStart, socket: MessagePort, drawer: MessagePort): Promise<void> {
  const post = (r: FromController, transfer: Transferable[] = []) => drawer.postMessage(r, transfer);
  const schemes = await catalogueFor(m.code);
  const log = new EventLog();
  const run = runLiveFetch(m, new PortSocket(socket), log, schemes);
  post({ kind: 'checked', params: run.params });
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
    post({ kind: 'rows', columns, now: run.now() }, buffersOf(columns));
  }, ROWS_MS);
  try {
    const end = await run.done;
    const columns = hand();
    post({ kind: 'end', end, columns, now: run.now() }, buffersOf(columns));
  } finally {
    clearInterval(timer);
    cancel = null;
  }
}

fromPage((r: ControllerRun) => {
  const drawer = r.port;
  // An error nothing caught (a controller's callback throwing as a reply arrives) ends the run, said plainly.
  self.addEventListener('error', (e) => {
    e.preventDefault();
    drawer.postMessage({ kind: 'failed', message: e.message } satisfies FromController);
  });
  drawer.onmessage = (e: MessageEvent<ToController>) => {
    const m = e.data;
    if (m.kind === 'cancel') return cancel?.();
    start(m.start, m.socket, drawer).catch((err: Error) => drawer.postMessage({ kind: 'failed', message: err.message } satisfies FromController));
  };
});
