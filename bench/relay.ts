import { createSocket } from 'node:dgram';
import WebSocket from 'ws';
import { FRAME_DATA, unframe } from '../shared/bridge/protocol.ts';
import { findScheme } from '../shared/controllers/registry.ts';
import { withDefaults } from '../shared/controllers/types.ts';
import { MAX_CHUNK } from '../shared/offset/protocol.ts';
import { boundMs, OffsetPolicy, DEFAULT_POLICY } from '../shared/offset/policy.ts';
import { generateFile } from '../shared/offset/file.ts';
import { encodeDataRequest } from '../shared/offset/protocol.ts';
import { Rng } from '../shared/sim/rng.ts';
import { fetchOverUdp } from '../server/liveFetch.ts';
import { malformedFlood, neverReads } from './relayAttack.ts';
import { differential } from './relayDifferential.ts';
import { bridgeLoad } from './relayLoad.ts';
import { pct, relayProcess, script } from './relayProcess.ts';

/** Times `n` round trips, one after another: `once` sends and resolves on the answer. */
async function roundTrips(n: number, once: () => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await once();
    out.push(performance.now() - t0);
  }
  return out;
}

const PROBE = Buffer.from('Offset: 0\nNumBytes: 1448\n\n');

async function rawUdpRtts(port: number, n: number): Promise<number[]> {
  const s = createSocket('udp4');
  await new Promise<void>((r) => s.connect(port, '127.0.0.1', () => r()));
  const out = await roundTrips(n, () => new Promise<void>((r) => (s.once('message', () => r()), s.send(PROBE))));
  s.close();
  return out;
}

function openWs(url: string): Promise<WebSocket> {
  return new Promise((res, rej) => {
    const ws = new WebSocket(url, { origin: url.replace('ws', 'http').replace(/\/bridge.*/, '') });
    ws.on('message', (d, bin) => !bin && JSON.parse(d.toString()).type === 'ready' && res(ws));
    ws.on('error', rej);
  });
}

const bridgeRtts = (ws: WebSocket, n: number) => roundTrips(n, () => new Promise<void>((r) => (ws.once('message', () => r()), ws.send(PROBE))));

/** Datagrams per second echoed through one bridged session with `window` in flight, over `ms`. */
async function bridgeThroughput(ws: WebSocket, window: number, ms: number): Promise<number> {
  const payload = Buffer.alloc(100, 65);
  let received = 0;
  let sent = 0;
  const end = performance.now() + ms;
  return new Promise((res) => {
    const onMessage = (d: Buffer) => {
      if (unframe(d)?.type !== FRAME_DATA) return;
      received++;
      if (performance.now() < end) {
        ws.send(payload);
        sent++;
      } else if (received === sent) {
        ws.off('message', onMessage);
        res((received / ms) * 1000);
      }
    };
    ws.on('message', onMessage);
    for (let i = 0; i < window; i++, sent++) ws.send(payload);
    setTimeout(() => {
      ws.off('message', onMessage);
      res((received / ms) * 1000);
    }, ms + 1000);
  });
}

/** Requests per second a relay's offset server answers, from several client sockets at once. */
async function serverThroughput(port: number, clients: number, window: number, ms: number): Promise<number> {
  let answered = 0;
  const end = performance.now() + ms;
  const request = encodeDataRequest(0, 1448);
  const sockets = await Promise.all(
    Array.from({ length: clients }, async () => {
      const s = createSocket({ type: 'udp4', recvBufferSize: 4 << 20 });
      await new Promise<void>((r) => s.connect(port, '127.0.0.1', () => r()));
      s.on('message', () => {
        answered++;
        if (performance.now() < end) s.send(request);
      });
      for (let i = 0; i < window; i++) s.send(request);
      return s;
    }),
  );
  const start = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  const rate = (answered / (performance.now() - start)) * 1000;
  sockets.forEach((s) => s.close());
  return rate;
}

function policyAlone(): number {
  const policy = new OffsetPolicy({ ...DEFAULT_POLICY, rate: 1e9, bucket: 1e9, loss: 0 }, generateFile(1_000_000, 1), new Rng(1));
  const request = encodeDataRequest(1448, 1448);
  const n = 300_000;
  for (let i = 0; i < 20_000; i++) policy.handle('k', request, i);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) policy.handle(`k${i & 63}`, request, i * 0.01);
  return (n / (performance.now() - t0)) * 1000;
}

/** The token pacer's 1 MB fetch from each of the relay's offset servers, five times: its time against the bound. */
async function fetchTimes(): Promise<Record<string, string>> {
  const figures: Record<string, string> = {};
  const servers = await relayProcess([]);
  try {
    const port = (kind: 'constant' | 'variable') => servers[kind];
    const scheme = findScheme('token-pacer')!;
    for (const kind of ['constant', 'variable'] as const) {
      const runs: { time: number; penalty: number }[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await fetchOverUdp('127.0.0.1', port(kind), { scheme, params: withDefaults(scheme.params), id: 'bench@pipefill', giveUpMs: 60_000 });
        runs.push({ time: r.result.serverTime, penalty: r.result.penalty });
      }
      const bound = boundMs({ ...DEFAULT_POLICY, variable: kind === 'variable' }, Math.ceil(1_000_000 / MAX_CHUNK));
      const times = runs.map((r) => r.time);
      const median = pct(times, 0.5);
      figures[`fetch 1 MB, token-pacer, ${kind} server`] =
        `median ${median} ms (${((median / bound - 1) * 100).toFixed(1)}% over the ${bound.toFixed(0)} ms bound); runs ${runs.map((r) => `${r.time} ms/penalty ${r.penalty}`).join(', ')}`;
    }
  } finally {
    servers.stop();
  }
  return figures;
}

export async function benchRelay(): Promise<Record<string, string>> {
  const figures: Record<string, string> = {};
  const echo = await script(['bench/udpEcho.ts'], /^\d+\n/);
  const echoPort = Number(echo.out.trim());
  const relay = await relayProcess([
    '--allow',
    `127.0.0.1:${echoPort}`,
    '--max-rate',
    '1000000',
    '--max-bytes',
    '1000000000',
    '--rate',
    '100000',
    '--bucket',
    '100000',
    '--loss',
    '0',
    '--initial-rate',
    '100000',
    '--low-rate',
    '100000',
    '--high-rate',
    '100000',
  ]);
  const { url, constant } = relay;
  try {
    const ws = await openWs(`${url.replace('http', 'ws')}/bridge?target=127.0.0.1:${echoPort}`);
    await rawUdpRtts(echoPort, 500);
    await bridgeRtts(ws, 500);
    const raw: number[] = [];
    const bridged: number[] = [];
    for (let round = 0; round < 10; round++) {
      raw.push(...(await rawUdpRtts(echoPort, 300)));
      bridged.push(...(await bridgeRtts(ws, 300)));
    }
    figures['raw UDP round trip p50 / p99'] = `${pct(raw, 0.5).toFixed(3)} / ${pct(raw, 0.99).toFixed(3)} ms`;
    figures['bridge round trip p50 / p99'] = `${pct(bridged, 0.5).toFixed(3)} / ${pct(bridged, 0.99).toFixed(3)} ms`;
    figures['bridge above raw UDP, p50 / p99'] = `${(pct(bridged, 0.5) - pct(raw, 0.5)).toFixed(3)} / ${(pct(bridged, 0.99) - pct(raw, 0.99)).toFixed(3)} ms`;
    figures['datagrams/s through one bridged session'] = `${(await bridgeThroughput(ws, 256, 2000)).toFixed(0)} (256 in flight, 2 s)`;
    ws.close();
    figures['offset server, policy alone'] = `${policyAlone().toFixed(0)} requests/s`;
    figures['offset server over UDP (relay process)'] = `${(await serverThroughput(Number(constant), 8, 64, 2000)).toFixed(0)} requests/s answered (8 clients × 64 in flight, 2 s)`;
  } finally {
    relay.stop();
    echo.proc.kill();
  }

  for (const part of [fetchTimes, malformedFlood, neverReads, bridgeLoad, differential]) Object.assign(figures, await part());
  return figures;
}
