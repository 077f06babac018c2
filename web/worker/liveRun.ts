import { findScheme, type SchemeCatalogue } from '../../shared/controllers/registry.ts';
import { network } from './sandbox.ts';
import { checkParams, type ParamValues } from '../../shared/controllers/types.ts';
import { FetchStopped } from '../../live/liveFetch.ts';
import type { OffsetPolicyConfig } from '../../shared/offset/policy.ts';
import { withPolicyValues } from '../../shared/offset/params.ts';
import type { RelayInfo } from '../../shared/relay/info.ts';
import type { EventColumns, EventLog } from '../../shared/log/eventLog.ts';
import type { LiveRun } from '../../shared/scenarios/spec.ts';
import type { OffsetFetchResult } from '../../shared/endpoints/offsetClient.ts';
import type { Scheme } from '../../shared/controllers/types.ts';
import { browserClock } from '../live/browserClock.ts';
import { bridgeUrl, type WebSocketLike } from '../live/bridgeSession.ts';
import { bridgeFetch } from '../live/bridgeFetch.ts';
import { ANONYMOUS_ID, isStudentId } from '../../shared/relay/studentId.ts';
import type { FromController, ToController } from './liveController.ts';

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
  /** The user's controller's code, when it is the scheme: each worker that checks or runs it loads it. */
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

function checked(m: LiveStart, schemes: SchemeCatalogue): { scheme: Scheme; values: ParamValues } {
  const scheme = findScheme(m.scheme, schemes);
  if (!scheme) throw new Error(`unknown scheme ${m.scheme}`);
  const c = checkParams(scheme, m.params);
  if ('error' in c) throw new Error(c.error);
  return { scheme, values: c.values };
}

/**
 * The page's controller fetching through the bridge, deciding on its worker's clock and each datagram
 * leaving the relay a few milliseconds after it was sent, as spaced as it was sent (web/live/bridgeFetch.ts:
 * from when the hop is quiet, its timeouts waiting for the relay's news). Not on the relay's clock
 * (web/live/timedFetch.ts): measured on a loaded machine, deciding ahead of time made replies held up on
 * the WebSocket look lost to the token pacer, and it collapsed (over 60 s for 1 MB, against 3.3 s here).
 * `now` is the run's clock.
 */
export function runLiveFetch(m: LiveStart, asked: LivePolicy['asked'], log: EventLog, schemes: SchemeCatalogue): { now(): number; done: Promise<LiveEnd>; cancel(): void } {
  const { scheme, values } = checked(m, schemes);
  const url = new URL(bridgeUrl(m.relay.replace(/^http/, 'ws'), m.target, 'udp', 'timed'));
  for (const [k, v] of Object.entries(asked ?? {})) url.searchParams.set(`srv.${k}`, String(v));
  // The browser's WebSocket fits the session's needs; the DOM's send type is only stricter on paper.
  const ws = new network.WebSocket(url) as unknown as WebSocketLike;
  const wall = browserClock();
  const run = bridgeFetch(ws, wall, { scheme, params: values, id: m.submitAs && isStudentId(m.submitAs) ? m.submitAs : ANONYMOUS_ID, giveUpMs: 120_000, log });
  const done = run.done.then(
    (o): LiveEnd => ({ result: o.result, stopped: o.result.result === null ? 'the server sent no Result' : null }),
    (e: Error): LiveEnd => {
      if (e instanceof FetchStopped) return { result: e.outcome.result, stopped: plain(e.message) };
      throw e;
    },
  );
  return { now: () => wall.now, done, cancel: run.cancel };
}

const plain = (message: string) => (message === 'cancelled' ? 'stopped' : message);

/** Appends rows handed over from the controller's worker. */
function append(log: EventLog, c: EventColumns): void {
  for (let i = 0; i < c.t.length; i++) log.push(c.t[i], c.kind[i], c.flow[i], c.seq[i], c.bytes[i], c.value[i], c.window[i]);
}

/**
 * A live fetch run in a worker of its own (liveController.ts), its rows gathered into `log` here as they
 * come, so the charts this worker computes from them never hold up the controller's sends.
 */
export function startLive(m: LiveStart, log: EventLog, { policy, asked }: LivePolicy, schemes: SchemeCatalogue): { spec: LiveRun; now(): number; done: Promise<LiveEnd>; cancel(): void } {
  const { values } = checked(m, schemes);
  const spec: LiveRun = { live: { server: m.target, scheme: m.scheme, params: values, via: 'bridge', variable: m.variable, policy } };
  // the kept constructor (the sandbox blocks the global one), under the name the bundler looks for
  const { Worker } = network;
  const worker = new Worker(new URL('./liveController.ts', import.meta.url), { type: 'module' });
  // The run's clock when the rows gathered so far were handed over: the charts end where the rows do.
  let reported = 0;
  const done = new Promise<LiveEnd>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<FromController>) => {
      const r = e.data;
      if (r.kind === 'failed') return reject(new Error(r.message));
      append(log, r.columns);
      reported = r.now;
      if (r.kind === 'end') resolve(r.end);
    };
    worker.onerror = (e) => reject(new Error(e.message || 'the live controller failed'));
  }).finally(() => worker.terminate());
  worker.postMessage({ kind: 'start', start: m, asked } satisfies ToController);
  return {
    spec,
    now: () => reported,
    done,
    cancel: () => worker.postMessage({ kind: 'cancel' } satisfies ToController),
  };
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
