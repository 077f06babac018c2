import { timedMessage } from '../../shared/bridge/protocol.ts';
import { leadAfterStall, leadFromPings, RelayClock } from '../../live/relayClock.ts';
import { type DatagramTransport, type FetchOutcome, type LiveFetchOptions, liveFetch } from '../../live/liveFetch.ts';
import type { WallClock } from '../../live/wallClock.ts';
import { type BridgeSession, type SessionSink, sinkSession, synchronize, type WebSocketLike } from './bridgeSession.ts';

/** The least head start a datagram is handed to the relay with; the pings and stalls during the run size it up. */
export const DEFAULT_LEAD_MS = 8;

export interface TimedOutcome extends FetchOutcome {
  /** For each datagram that reached the relay before its time, how late the relay sent it (ms). */
  lateness: number[];
  /** Datagrams that reached the relay after their time (sent at once: an answer to a reply, a retry). */
  overdue: number;
  /** Datagrams handed to the relay (requests, and every Size and Submit, retries included). */
  sent: number;
  /** Relay time minus this side's clock, as the pings measured it. */
  offsetMs: number;
  /** The head start the run began with (from the pings) and ended with (grown by stalls). */
  leadMs: { first: number; last: number };
}

/**
 * A live fetch through a timed bridge session (`timed=1`): the clocks are matched by pings, the controller
 * runs on the relay's time (RelayClock), each datagram goes to the relay with the time it is to leave at,
 * and replies count from the relay's arrival stamps. The page's timers and the WebSocket hop shape nothing
 * the server sees.
 */
export function timedFetch(ws: WebSocketLike, wall: WallClock, o: LiveFetchOptions & { leadMs?: number }): { done: Promise<TimedOutcome>; cancel(): void; now(): number } {
  const { session, sink } = sinkSession(ws);
  let cancelled = false;
  let clock: RelayClock | null = null;
  let cancelFetch: (() => void) | null = null;
  const cancel = () => {
    cancelled = true;
    if (cancelFetch) cancelFetch();
    else sink.fail('cancelled');
  };
  const done = (async (): Promise<TimedOutcome> => {
    const { offsetMs, base, samples } = await synchronize(session, wall, sink);
    if (cancelled) throw new Error('cancelled');
    // The fetch's clock is the relay's, counted from the clocks' matching, so its log starts near 0.
    const first = leadFromPings(samples, o.leadMs ?? DEFAULT_LEAD_MS);
    const relayClock = new RelayClock(wall, offsetMs - base, first);
    clock = relayClock;
    const timed = timedTransport(session, sink, relayClock, base);
    const run = liveFetch(timed.transport, relayClock, o);
    cancelFetch = run.cancel;
    return { ...(await run.done), lateness: timed.lateness, overdue: timed.overdue, sent: timed.sent, offsetMs, leadMs: { first, last: relayClock.leadMs } };
  })();
  done.catch(() => session.close());
  return { done, cancel, now: () => clock?.now ?? 0 };
}

/**
 * The session as the fetch's transport: datagrams go with their send times on the relay's clock
 * (`base` is where the fetch's clock starts on it), replies come with the relay's stamps. Every frame
 * from the relay moves the news on (see RelayClock); the relay's reports of each send say how late it
 * was, and a scheduled datagram that still came late grows the head start.
 */
function timedTransport(session: BridgeSession, sink: SessionSink, relayClock: RelayClock, base: number) {
  // The relay's time (on the fetch's clock) of the latest frame from it: all it sent before has come.
  let horizon = Number.NEGATIVE_INFINITY;
  let pinging = false;
  relayClock.news = {
    heardUntil: () => horizon,
    behind: () => {
      if (!pinging) session.ping(-1);
      pinging = true;
    },
  };
  const heard = (relayTime: number) => {
    horizon = Math.max(horizon, relayTime - base);
    relayClock.release();
  };
  sink.onPong = (_t, relayTime) => {
    pinging = false;
    heard(relayTime);
  };
  const askedAt: number[] = [];
  // Whether each datagram was handed over before its time (scheduled), not in answer to a reply.
  const ahead: boolean[] = [];
  const out = { lateness: [] as number[], overdue: 0, sent: 0, transport: null as unknown as DatagramTransport };
  sink.onSent = (n, relayTime, arrivedAt = Number.NaN) => {
    const asked = askedAt[n] + base;
    if (arrivedAt > asked) {
      out.overdue++;
      if (ahead[n]) relayClock.leadMs = leadAfterStall(relayClock.leadMs, arrivedAt - asked);
    } else if (Number.isFinite(asked)) out.lateness.push(Math.max(0, relayTime - asked));
    heard(relayTime);
  };
  out.transport = {
    send: (d, at) => {
      askedAt[++out.sent] = at;
      ahead[out.sent] = at > relayClock.now;
      session.send(timedMessage(at + base, d));
    },
    listen: (onDatagram, onFailure) => {
      sink.onData = (p, relayTime) => {
        onDatagram(p, relayTime - base);
        heard(relayTime);
      };
      sink.fail = onFailure;
    },
    close: () => session.close(),
  };
  return out;
}
