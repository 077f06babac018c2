import { network } from './sandbox.ts';
import type { ParamValues } from '../../shared/controllers/types.ts';
import type { OffsetPolicyConfig } from '../../shared/offset/policy.ts';
import { withPolicyValues } from '../../shared/offset/params.ts';
import type { RelayInfo } from '../../shared/relay/info.ts';
import { type EventColumns, EventLog } from '../../shared/log/eventLog.ts';
import type { LiveRun } from '../../shared/scenarios/spec.ts';
import type { OffsetFetchResult } from '../../shared/endpoints/offsetClient.ts';
import { bridgeUrl } from '../live/bridgeSession.ts';
import type { FromController, ToController } from './liveController.ts';
import type { SocketStart } from './liveSocket.ts';

export interface LiveStart {
  relay: string;
  target: string;
  scheme: string;
  params: Record<string, string | number>;
  variable: boolean;
  /** The student's id the Submit gives (web/live/studentId.ts); ANONYMOUS_ID if none or not an id. */
  submitAs?: string;
  /** The page's server settings (srv.*): asked of the relay when its operator lets a session choose. */
  policy?: Record<string, string | number>;
  /** The user's controller's code, when it is the scheme: only the controller's worker, in the sandbox frame, loads it. */
  code?: string;
}

/** The policy a live run meets: the relay's, or the page's settings where the relay takes them (`asked`). */
export interface LivePolicy {
  policy: OffsetPolicyConfig | undefined;
  asked: Record<string, string | number> | null;
}

/** How a live run ended: the server's verdict, or a plain reason with what had arrived by then. */
export interface LiveEnd {
  result: OffsetFetchResult;
  stopped: string | null;
}

/** The relay's timed bridge to the target, with the page's settings where the relay takes them. */
export function liveBridgeUrl(m: LiveStart, asked: LivePolicy['asked']): string {
  const url = new URL(bridgeUrl(m.relay.replace(/^http/, 'ws'), m.target, 'udp', 'timed'));
  for (const [k, v] of Object.entries(asked ?? {})) url.searchParams.set(`srv.${k}`, String(v));
  return url.toString();
}

/** Appends rows handed over from the controller's worker. */
function append(log: EventLog, c: EventColumns): void {
  for (let i = 0; i < c.t.length; i++) log.push(c.t[i], c.kind[i], c.flow[i], c.seq[i], c.bytes[i], c.value[i], c.window[i]);
}

const COLUMN_TYPES = new EventLog().columns;

/** Rows from the sandbox: each column of its kind of array, all of one length. */
function isColumns(c: unknown): c is EventColumns {
  if (typeof c !== 'object' || c === null) return false;
  const cols = c as Record<string, unknown>;
  return Object.entries(COLUMN_TYPES).every(([k, a]) => cols[k] instanceof a.constructor && (cols[k] as ArrayLike<number>).length === (cols.t as ArrayLike<number>).length);
}

/** A scheme's values as the sandbox checked them: names to numbers or words. */
const isParams = (p: unknown): p is ParamValues => typeof p === 'object' && p !== null && Object.values(p).every((v) => typeof v === 'number' || typeof v === 'string');

/** A message from the controller's worker (which runs a link's code) of a kind and shape this side takes. */
function isFromController(r: unknown): r is FromController {
  if (typeof r !== 'object' || r === null) return false;
  const m = r as Partial<Record<string, unknown>>;
  if (m.kind === 'checked') return isParams(m.params);
  if (m.kind === 'failed') return typeof m.message === 'string';
  const rows = isColumns(m.columns) && typeof m.now === 'number';
  if (m.kind === 'rows') return rows;
  const end = m.end as Partial<LiveEnd> | undefined;
  return m.kind === 'end' && rows && typeof end?.result === 'object' && end.result !== null && (end.stopped === null || typeof end.stopped === 'string');
}

/**
 * A live fetch, its controller in the sandbox frame (liveController.ts, reached over `controller`) and its
 * WebSocket in a worker of the page's origin of its own (liveSocket.ts), opened here to the page's relay.
 * The rows are gathered into `log` here as they come, so the charts this worker computes from them never
 * hold up the controller's sends. Resolves once the controller has checked the scheme's values.
 */
export function startLive(m: LiveStart, log: EventLog, { policy, asked }: LivePolicy, controller: MessagePort) {
  // the kept constructor (the sandbox blocks the global one), under the name the bundler looks for
  const { Worker } = network;
  const socket = new Worker(new URL('./liveSocket.ts', import.meta.url), { type: 'module' });
  const { port1, port2 } = new MessageChannel();
  socket.postMessage({ url: liveBridgeUrl(m, asked), port: port1 } satisfies SocketStart, [port1]);
  // The run's clock when the rows gathered so far were handed over: the charts end where the rows do.
  let reported = 0;
  let checked: (params: ParamValues) => void = () => {};
  const done = new Promise<LiveEnd>((resolve, reject) => {
    controller.onmessage = (e: MessageEvent<unknown>) => {
      const r = e.data;
      if (!isFromController(r)) return;
      if (r.kind === 'failed') return reject(new Error(r.message));
      if (r.kind === 'checked') return checked(r.params);
      append(log, r.columns);
      reported = r.now;
      if (r.kind === 'end') resolve(r.end);
    };
    socket.onerror = (e) => reject(new Error(e.message || 'the live fetch’s socket failed'));
  }).finally(() => {
    socket.terminate();
    controller.close();
  });
  controller.postMessage({ kind: 'start', start: m, socket: port2 } satisfies ToController, [port2]);
  const run = { now: () => reported, done, cancel: () => controller.postMessage({ kind: 'cancel' } satisfies ToController) };
  return Promise.race([
    new Promise<typeof run & { spec: LiveRun }>((resolve) => {
      checked = (params) => resolve({ ...run, spec: { live: { server: m.target, scheme: m.scheme, params, via: 'bridge', variable: m.variable, policy } } });
    }),
    done.then((): never => {
      throw new Error('the live controller ended before it started');
    }),
  ]);
}

/**
 * The policy a live run meets, from what the relay reports (a relay that does not say: the course's): the
 * page's own settings if the operator lets a session ask for them, else the relay's.
 */
export async function relayPolicy(m: LiveStart): Promise<LivePolicy> {
  const r = await network.fetch(new URL('/api/relay', m.relay));
  if (!r.ok) throw new Error(`the relay did not describe itself (${r.status})`);
  const info = (await r.json()) as Partial<RelayInfo>;
  const asked = info.sessionPolicy && m.policy && Object.keys(m.policy).length > 0 ? m.policy : null;
  const base = info.policy && { ...info.policy, variable: m.variable };
  return { policy: base && asked ? withPolicyValues(base, asked) : base, asked };
}
