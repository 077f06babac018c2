import { monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket from 'ws';
import { FRAME_DATA, FRAME_SENT, unframe } from '../shared/bridge/protocol.ts';
import { findScheme } from '../shared/controllers/registry.ts';
import { withDefaults } from '../shared/controllers/types.ts';
import { K } from '../shared/log/kinds.ts';
import { liveFetch } from '../live/liveFetch.ts';
import { nodeClock } from '../server/clock.ts';
import { bridgeTransport, type WebSocketLike } from '../web/live/bridgeSession.ts';
import { pct, relayProcess, sleep, type RelayProcess } from './relayProcess.ts';

export const MANY = ['--max-sessions', '1000', '--max-per-client', '1000', '--max-http-per-client', '2000'];

function session(relay: RelayProcess, query: string): Promise<WebSocket> {
  return new Promise((res, rej) => {
    const ws = new WebSocket(`${relay.url.replace('http', 'ws')}/bridge?${query}`, { origin: relay.url });
    ws.on('message', (d, bin) => !bin && JSON.parse(d.toString()).type === 'ready' && res(ws));
    ws.on('error', rej);
  });
}

/**
 * `n` bridged sessions each requesting a chunk every 4 ms (a paced fetch at 250/s), one in flight, for
 * `ms`. The latency the bridge adds to a request is its round trip at the page minus the UDP leg the
 * relay timed (from the datagram leaving to its reply arriving).
 */
export async function bridgedLatency(relay: RelayProcess, n: number, ms: number): Promise<{ added: number[]; answered: number }> {
  const sockets = await Promise.all(Array.from({ length: n }, () => session(relay, `target=127.0.0.1:${relay.constant}&receipts=1`)));
  const added: number[] = [];
  const request = Buffer.from('Offset: 0\nNumBytes: 1448\n\n');
  const end = performance.now() + ms;
  await Promise.all(
    sockets.map(
      (ws) =>
        new Promise<void>((done) => {
          let sentAt = 0;
          let leftRelay = 0;
          let lost: ReturnType<typeof setTimeout> | undefined;
          const next = () => {
            clearTimeout(lost);
            if (performance.now() > end) return done();
            sentAt = performance.now();
            ws.send(request);
            lost = setTimeout(next, 1000); // a datagram lost on the way: carry on
          };
          ws.on('message', (d: Buffer, bin) => {
            const f = bin ? unframe(d) : null;
            if (f?.type === FRAME_SENT) leftRelay = f.relayTime;
            if (f?.type !== FRAME_DATA) return;
            clearTimeout(lost);
            added.push(performance.now() - sentAt - (f.relayTime - leftRelay));
            setTimeout(next, Math.max(0, 4 - (performance.now() - sentAt)));
          });
          setTimeout(next, Math.random() * 4);
        }),
    ),
  );
  sockets.forEach((ws) => ws.close());
  await sleep(500);
  return { added, answered: added.length };
}

/**
 * `n` bridged sessions each fetching the whole file with the token pacer at once; `timeouts` is their
 * retransmission timeouts in all, `penalty` the requests the servers refused for want of a token.
 */
export async function fetches(relay: RelayProcess, n: number): Promise<{ done: number; right: number; ms: number; timeouts: number; penalty: number }> {
  const scheme = findScheme('token-pacer')!;
  const t0 = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: n }, (_, i) => {
      const ws = new WebSocket(`${relay.url.replace('http', 'ws')}/bridge?target=127.0.0.1:${relay.constant}`, { origin: relay.url });
      return liveFetch(bridgeTransport(ws as unknown as WebSocketLike), nodeClock(), { scheme, params: withDefaults(scheme.params), id: `s${i}@bench`, giveUpMs: 120_000 }).done.then(
        (o) => o,
        () => null,
      );
    }),
  );
  const ms = performance.now() - t0;
  const timeouts = outcomes.reduce((n, o) => n + (o?.log.count(K.timeout) ?? 0), 0);
  const penalty = outcomes.reduce((n, o) => n + (o?.result.penalty ?? 0), 0);
  return { done: outcomes.filter((o) => o !== null).length, right: outcomes.filter((o) => o?.result.result).length, ms, timeouts, penalty };
}

export async function bridgeLoad(): Promise<Record<string, string>> {
  const figures: Record<string, string> = {};
  const open = ['--rate', '100000', '--bucket', '100000', '--loss', '0'];
  for (const [label, extra] of [
    ['single thread', ['--single-thread']],
    ['threads', []],
  ] as const) {
    const relay = await relayProcess([...MANY, ...open, ...extra]);
    try {
      await bridgedLatency(relay, 200, 1500); // warm-up: compiled code and grown buffers on both sides
      const cpu0 = relay.cpuMs();
      const own0 = process.cpuUsage();
      const lag = monitorEventLoopDelay({ resolution: 1 });
      lag.enable();
      const r = await bridgedLatency(relay, 200, 5000);
      lag.disable();
      const cores = (relay.cpuMs() - cpu0) / 5500;
      const own = process.cpuUsage(own0);
      const clientCores = (own.user + own.system) / 1000 / 5500;
      figures[`200 sessions at 250 req/s each (${label}): added latency p50 / p99`] = r.answered
        ? `${pct(r.added, 0.5).toFixed(2)} / ${pct(r.added, 0.99).toFixed(2)} ms (${r.answered} requests answered in 5 s; relay used ${cores.toFixed(2)} cores, the load generator ${clientCores.toFixed(2)}, whose own event-loop delay p99 was ${(lag.percentile(99) / 1e6).toFixed(1)} ms)`
        : 'no request answered in 5 s';
    } finally {
      relay.stop();
    }
    await sleep(500);
  }
  const relay = await relayProcess([...MANY, '--file-size', '30000']);
  try {
    const r = await fetches(relay, 500);
    figures['500 bridged sessions fetching 30 KB at once'] = `${r.done} / 500 complete, ${r.right} Result: true, in ${(r.ms / 1000).toFixed(1)} s`;
  } finally {
    relay.stop();
  }
  return figures;
}
