import { type DatagramTransport, type FetchOutcome, FetchStopped, type LiveFetchOptions, liveFetch } from '../../live/liveFetch.ts';
import { NewsClock } from '../../live/newsClock.ts';
import { timedMessage } from '../../shared/bridge/protocol.ts';
import { leadAfterStall, leadFromPings, type RelayNews } from '../../live/relayClock.ts';
import type { WallClock } from '../../live/wallClock.ts';
import { sinkSession, synchronize, type WebSocketLike } from './bridgeSession.ts';

/** The least delay between the controller's send and the relay's; the pings and late arrivals size it up. */
export const SEND_DELAY_MS = 5;

/**
 * How many of the latest datagrams' hops to the relay size the margin kept for the hop: the slowest of
 * them, and HOP_SPARE_MS more.
 */
export const HOPS_KEPT = 32;
export const HOP_SPARE_MS = 0.5;

/**
 * How late an action may run here and still be handed its due time: what the delay leaves once the hop is
 * covered (the slowest of the latest hops, and a spare), so that its datagram still reaches the relay
 * before its time and leaves at its place. A timer here that fires later than this counts its lateness.
 */
export function slackLeft(delayMs: number, hops: readonly number[]): number {
  const hop = hops.length === 0 ? delayMs : Math.max(...hops);
  return Math.max(0, delayMs - hop - HOP_SPARE_MS);
}

/**
 * A live fetch through a timed bridge session (`timed=1`). The controller decides on this side's clock; each
 * datagram is handed over as it sends it, asked to leave the relay a delay later on the relay's clock.
 * The WebSocket hop delivers frames in clumps (a busy browser or relay reads several at once); a datagram
 * that reaches the relay within the delay leaves spaced as the controller sent it, as a CLI's would. The
 * delay starts from the pings (leadFromPings) and grows when a datagram arrives after its time
 * (leadAfterStall), up to MAX_LEAD_MS: it only adds that much to each round trip. Within the delay, less
 * the hop, a late timer here is forgiven: its action is handed its due time (slackLeft). Replies are
 * handed to the controller at the relay's stamp of their arrival (NewsClock.arrival), so neither the hop
 * back nor this side's event loop lengthens the round trips the controller sees.
 *
 * It starts once the hop is quiet (synchronize: a page that has just started a run is busy drawing and
 * compiling), and runs on a NewsClock fed by the relay's stamps and its reports of each datagram sent, so
 * replies held up on the hop, either way, are not taken for losses: either makes the token pacer back
 * off for seconds.
 */
export function bridgeFetch(ws: WebSocketLike, wall: WallClock, o: LiveFetchOptions): { done: Promise<FetchOutcome>; cancel(): void } {
  const { session, sink } = sinkSession(ws);
  // Relay time minus this side's, once the pings have matched the clocks; the latest relay stamp heard.
  let offsetMs = Number.NaN;
  let delayMs = SEND_DELAY_MS;
  let latest = Number.NEGATIVE_INFINITY;
  let pinging = false;
  // Each datagram not yet reported sent by the relay (numbered from 1 there): the relay-clock time it asked
  // to leave at, and the time here it cannot have left before.
  const unsent: { asked: number; earliest: number; sentAt: number }[] = [];
  let reported = 0;
  // How long the latest datagrams took from here to the relay.
  const hops: number[] = [];
  const news: RelayNews = {
    // A datagram still on its way to the relay holds the news back: its reply cannot have been heard yet.
    heardUntil: () => Math.min(latest - offsetMs, unsent.length > 0 ? unsent[0].earliest : Number.POSITIVE_INFINITY),
    behind: () => {
      if (!pinging) session.ping(-1);
      pinging = true;
    },
  };
  const clock = new NewsClock(wall, news, () => slackLeft(delayMs, hops));
  const heard = (relayTime: number) => {
    latest = Math.max(latest, relayTime);
    clock.release();
  };
  let failure = (_message: string) => {};
  const ready = synchronize(session, wall, sink).then((sync) => {
    offsetMs = sync.offsetMs;
    delayMs = leadFromPings(sync.samples, SEND_DELAY_MS);
    sink.fail = (message) => failure(message);
    sink.onPong = (_t, relayTime) => {
      pinging = false;
      heard(relayTime);
    };
    sink.onSent = (n, relayTime, arrivedAt = Number.NaN) => {
      for (; reported < n && unsent.length > 0; reported++) {
        const { asked, sentAt } = unsent.shift()!;
        if (reported + 1 !== n || Number.isNaN(arrivedAt)) continue;
        if (arrivedAt > asked) delayMs = leadAfterStall(delayMs, arrivedAt - asked);
        hops.push(arrivedAt - offsetMs - sentAt);
        if (hops.length > HOPS_KEPT) hops.shift();
      }
      heard(relayTime);
    };
  });
  const transport: DatagramTransport = {
    ready,
    send: (d, at) => {
      const asked = at + delayMs + offsetMs;
      unsent.push({ asked, earliest: Math.max(wall.now, at + delayMs), sentAt: wall.now });
      session.send(timedMessage(asked, d));
    },
    listen(onDatagram, onFailure) {
      sink.onData = (payload, relayTime) => {
        latest = Math.max(latest, relayTime);
        clock.arrival(relayTime - offsetMs, (at) => onDatagram(payload, at));
      };
      failure = onFailure;
    },
    close: () => session.close(),
  };
  const run = liveFetch(transport, clock, o);
  // The result names the session the relay recorded, so the page can mark it as its own (web/live/ownSessions.ts).
  const named = (outcome: FetchOutcome) => {
    if (session.relaySession) outcome.result.session = session.relaySession;
  };
  const done = run.done.then(
    (outcome) => (named(outcome), outcome),
    (e: unknown) => {
      if (e instanceof FetchStopped) named(e.outcome);
      throw e;
    },
  );
  return { done, cancel: run.cancel };
}
