import { type DatagramTransport, type FetchOutcome, type LiveFetchOptions, liveFetch } from '../../live/liveFetch.ts';
import { NewsClock } from '../../live/newsClock.ts';
import type { RelayNews } from '../../live/relayClock.ts';
import type { WallClock } from '../../live/wallClock.ts';
import { sinkSession, synchronize, type WebSocketLike } from './bridgeSession.ts';

/**
 * A live fetch through an untimed bridge session, each datagram sent as it is handed over. It starts once
 * the hop is quiet (synchronize: a page that has just started a run is busy drawing and compiling), and
 * runs on a NewsClock fed by the relay's stamps and its reports of each datagram sent (a `receipts`
 * session), so replies held up on the hop, either way, are not taken for losses: either makes the token
 * pacer back off for seconds.
 */
export function bridgeFetch(ws: WebSocketLike, wall: WallClock, o: LiveFetchOptions): { done: Promise<FetchOutcome>; cancel(): void } {
  const { session, sink } = sinkSession(ws);
  // Relay time minus this side's, once the pings have matched the clocks; the latest relay stamp heard.
  let offsetMs = Number.NaN;
  let latest = Number.NEGATIVE_INFINITY;
  let pinging = false;
  // When each datagram not yet reported sent by the relay was handed over (the relay numbers them from 1).
  const unsent: number[] = [];
  let reported = 0;
  const news: RelayNews = {
    // A datagram still on its way to the relay holds the news back: its reply cannot have been heard yet.
    heardUntil: () => Math.min(latest - offsetMs, unsent.length > 0 ? unsent[0] : Number.POSITIVE_INFINITY),
    behind: () => {
      if (!pinging) session.ping(-1);
      pinging = true;
    },
  };
  const clock = new NewsClock(wall, news);
  const heard = (relayTime: number) => {
    latest = Math.max(latest, relayTime);
    clock.release();
  };
  let failure = (_message: string) => {};
  const ready = synchronize(session, wall, sink).then((sync) => {
    offsetMs = sync.offsetMs;
    sink.fail = (message) => failure(message);
    sink.onPong = (_t, relayTime) => {
      pinging = false;
      heard(relayTime);
    };
    sink.onSent = (n, relayTime) => {
      for (; reported < n; reported++) unsent.shift();
      heard(relayTime);
    };
  });
  const transport: DatagramTransport = {
    ready,
    send: (d) => {
      unsent.push(wall.now);
      session.send(d);
    },
    listen(onDatagram, onFailure) {
      sink.onData = (payload, relayTime) => {
        onDatagram(payload);
        heard(relayTime);
      };
      failure = onFailure;
    },
    close: () => session.close(),
  };
  return liveFetch(transport, clock, o);
}
