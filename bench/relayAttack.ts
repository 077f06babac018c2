import { createSocket, type Socket } from 'node:dgram';
import WebSocket from 'ws';
import { findScheme } from '../shared/controllers/registry.ts';
import { withDefaults } from '../shared/controllers/types.ts';
import { Rng } from '../shared/sim/rng.ts';
import { fetchOverUdp } from '../server/liveFetch.ts';
import { relayProcess, sleep } from './relayProcess.ts';

/** Malformed datagrams of every kind: random bytes, 64 KB of header lines, broken fields, no empty line. */
function malformed(rng: Rng): Buffer {
  switch (rng.int(5)) {
    case 0:
      return Buffer.from(Array.from({ length: 1 + rng.int(300) }, () => rng.int(256)));
    case 1:
      return Buffer.from('Offset: 1\n'.repeat(6500));
    case 2:
      return Buffer.from(`Offset: -${rng.int(9)}\nNumBytes: x\n\n`);
    case 3:
      return Buffer.from(`Offset: 0\nNumBytes: ${1449 + rng.int(1e6)}\n\n`);
    default:
      return Buffer.from('Submit: \nMD5: nothex\n\n');
  }
}

/** 100,000 malformed datagrams from 1,000 source ports, then a fetch; replies counted per port. */
export async function malformedFlood(): Promise<Record<string, string>> {
  const relay = await relayProcess([]);
  const rng = new Rng(3, 'malformed');
  try {
    await sleep(500);
    const rss0 = relay.rssMb();
    const replies = new Map<Socket, number>();
    const sockets = await Promise.all(
      Array.from({ length: 1000 }, async () => {
        const s = createSocket('udp4');
        await new Promise<void>((r) => s.connect(relay.constant, '127.0.0.1', () => r()));
        replies.set(s, 0);
        s.on('message', () => replies.set(s, replies.get(s)! + 1));
        s.on('error', () => {});
        return s;
      }),
    );
    const t0 = performance.now();
    let sent = 0;
    let peak = rss0;
    for (let round = 0; round < 100 && performance.now() - t0 < 60_000; round++) {
      for (const s of sockets) s.send(malformed(rng));
      sent += sockets.length;
      if (round % 5 === 0) peak = Math.max(peak, relay.rssMb());
      await sleep(2);
    }
    const sendMs = performance.now() - t0;
    await sleep(1000);
    peak = Math.max(peak, relay.rssMb());
    const counts = [...replies.values()];
    const total = counts.reduce((a, b) => a + b, 0);
    sockets.forEach((s) => s.close());
    const scheme = findScheme('token-pacer')!;
    const after = await fetchOverUdp('127.0.0.1', relay.constant, { scheme, params: withDefaults(scheme.params), id: 'after@flood', giveUpMs: 30_000 });
    return {
      'malformed flood: datagrams / source ports': `${sent} / ${sockets.length} in ${(sendMs / 1000).toFixed(1)} s`,
      'malformed flood: crashes': relay.alive() ? '0 (relay still running)' : `the relay exited (${relay.proc.exitCode ?? relay.proc.signalCode})`,
      'malformed flood: replies': `${total} (${(total / sent).toFixed(3)} per datagram; most per port ${Math.max(...counts)} for 100 sent)`,
      'malformed flood: fetch afterwards': `Result: ${after.result.result}, ${after.result.serverTime} ms, penalty ${after.result.penalty}`,
      'malformed flood: relay RSS growth': `${(peak - rss0).toFixed(1)} MB (${rss0.toFixed(0)} → peak ${peak.toFixed(0)} MB)`,
    };
  } finally {
    relay.stop();
  }
}

/** A page that sends 60 KB messages to the echo server through the bridge and never reads. */
export async function neverReads(): Promise<Record<string, string>> {
  const relay = await relayProcess(['--max-bytes', '1000000000', '--max-rate', '1000000']);
  try {
    const rss0 = relay.rssMb();
    const ws = new WebSocket(`${relay.url.replace('http', 'ws')}/bridge?target=127.0.0.1:${relay.echo}&transport=tcp`, { origin: relay.url });
    await new Promise((r) => ws.on('open', r));
    ws.pause();
    const m = Buffer.alloc(60_000, 7);
    m.writeUInt16BE(60_000, 0);
    let closedAt = -1;
    ws.on('close', () => (closedAt = performance.now()));
    ws.on('error', () => {});
    const t0 = performance.now();
    let peak = rss0;
    let sent = 0;
    while (closedAt < 0 && performance.now() - t0 < 15_000) {
      while (ws.readyState === ws.OPEN && ws.bufferedAmount < 8 << 20) {
        ws.send(m);
        sent++;
      }
      peak = Math.max(peak, relay.rssMb());
      await sleep(50);
    }
    ws.terminate();
    return {
      'never-reading page: relay RSS': `peak ${peak.toFixed(0)} MB (from ${rss0.toFixed(0)} MB; ${((sent * 60_000) / 1e6).toFixed(0)} MB offered)`,
      'never-reading page: session': closedAt < 0 ? 'still open after 15 s' : `closed by the relay after ${((closedAt - t0) / 1000).toFixed(1)} s`,
    };
  } finally {
    relay.stop();
  }
}
