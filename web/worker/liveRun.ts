import { findScheme } from '../../shared/controllers/registry.ts';
import { network } from './sandbox.ts';
import { checkParams } from '../../shared/controllers/types.ts';
import { FetchStopped, liveFetch } from '../../live/liveFetch.ts';
import type { OffsetPolicyConfig } from '../../shared/offset/policy.ts';
import type { RelayInfo } from '../../shared/relay/info.ts';
import type { EventLog } from '../../shared/log/eventLog.ts';
import type { LiveRun } from '../../shared/scenarios/spec.ts';
import type { OffsetFetchResult } from '../../shared/endpoints/offsetClient.ts';
import { browserClock } from '../live/browserClock.ts';
import { bridgeTransport, bridgeUrl, type WebSocketLike } from '../live/bridgeSession.ts';
import { timedFetch } from '../live/timedFetch.ts';

export interface LiveStart {
  relay: string;
  target: string;
  scheme: string;
  params: Record<string, string | number>;
  variable: boolean;
  /** Through a timed session (the relay keeps the send times), or datagrams sent as the page's timers fire. */
  timed?: boolean;
}

/** How a live run ended: the server's verdict, or a plain reason with what had arrived by then. */
export interface LiveEnd {
  result: OffsetFetchResult;
  stopped: string | null;
}

/**
 * A live fetch of the page's controller through the bridge; with `timed`, through a timed session where the relay keeps the sends' times
 * and stamps the replies, so the controller runs as it does in `npm run fetch`. `now` is the run's clock
 * (the relay's, from the session's start), for the growing charts.
 */
export function startLive(m: LiveStart, log: EventLog, policy: OffsetPolicyConfig | undefined): { spec: LiveRun; now(): number; done: Promise<LiveEnd>; cancel(): void } {
  const scheme = findScheme(m.scheme);
  if (!scheme) throw new Error(`unknown scheme ${m.scheme}`);
  const checked = checkParams(scheme, m.params);
  if ('error' in checked) throw new Error(checked.error);
  const ws = new network.WebSocket(bridgeUrl(m.relay.replace(/^http/, 'ws'), m.target, 'udp', m.timed ? 'timed' : null));
  const wall = browserClock();
  const spec: LiveRun = { live: { server: m.target, scheme: m.scheme, params: checked.values, via: 'bridge', variable: m.variable, policy } };
  // Datagrams are plain ArrayBuffer-backed bytes; the DOM's send type is only stricter on paper.
  const o = { scheme, params: checked.values, id: 'pipefill@browser', giveUpMs: 120_000, log };
  const run = m.timed ? timedFetch(ws as unknown as WebSocketLike, wall, o) : { ...liveFetch(bridgeTransport(ws as unknown as WebSocketLike), wall, o), now: () => wall.now };
  const done = run.done.then(
    (o): LiveEnd => ({ result: o.result, stopped: o.result.result === null ? 'the server sent no Result' : null }),
    (e: Error): LiveEnd => {
      if (e instanceof FetchStopped) return { result: e.outcome.result, stopped: plain(e.message) };
      throw e;
    },
  );
  return { spec, now: run.now, done, cancel: run.cancel };
}

const plain = (message: string) => (message === 'cancelled' ? 'stopped' : message);

/** The policy the relay's servers enforce, as it reports it (a relay that does not say: the course's). */
export async function relayPolicy(relay: string): Promise<OffsetPolicyConfig | undefined> {
  const r = await network.fetch(new URL('/api/relay', relay));
  if (!r.ok) throw new Error(`the relay did not describe itself (${r.status})`);
  return ((await r.json()) as Partial<RelayInfo>).policy;
}
