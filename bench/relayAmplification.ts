import { createSocket, type Socket } from 'node:dgram';
import { relayProcess, sleep } from './relayProcess.ts';

const REQUEST = Buffer.from('Offset: 0\nNumBytes: 1448\n\n');

/**
 * What one address draws from an offset server: `ports` source ports of 127.0.0.1 each asking for a
 * chunk every 4 ms (the token rate) for `ms`. Returns the reply bytes per second and the largest reply
 * against its request (the amplification a spoofed source would get).
 */
async function drawn(port: number, ports: number, ms: number): Promise<{ bytesPerSecond: number; factor: number; answered: number }> {
  const sockets: Socket[] = [];
  let bytes = 0;
  let answered = 0;
  let largest = 0;
  for (let i = 0; i < ports; i++) {
    const s = createSocket({ type: 'udp4', recvBufferSize: 1 << 20 });
    s.on('message', (m) => {
      bytes += m.length;
      answered++;
      largest = Math.max(largest, m.length);
    });
    s.on('error', () => {});
    await new Promise<void>((r) => s.connect(port, '127.0.0.1', () => r()));
    sockets.push(s);
  }
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    for (const s of sockets) s.send(REQUEST);
    await sleep(4);
  }
  await sleep(200);
  const elapsed = performance.now() - t0;
  for (const s of sockets) s.close();
  return { bytesPerSecond: (bytes * 1000) / elapsed, factor: largest / REQUEST.length, answered };
}

/** The offset server's amplification and what 200 source ports of one address draw, without and with the per-address limits. */
export async function benchAmplification(): Promise<Record<string, string>> {
  const figures: Record<string, string> = {};
  const unlimited = ['--max-server-bytes-per-client', '10000000000', '--max-server-sessions-per-client', '1000000'];
  for (const [label, flags] of [
    ['no per-address limits', unlimited],
    ['default limits', []],
    ['--max-server-bytes-per-client 2000000', ['--max-server-bytes-per-client', '2000000']],
  ] as const) {
    const relay = await relayProcess([...flags]);
    try {
      await sleep(500);
      const r = await drawn(relay.constant, 200, 3000);
      figures[`200 source ports of one address, 3 s (${label})`] =
        `${(r.bytesPerSecond / 1e6).toFixed(1)} MB/s of replies (${r.answered} replies); a ${REQUEST.length}-byte request draws ${Math.round(r.factor * REQUEST.length)} bytes (${r.factor.toFixed(0)}×)`;
    } finally {
      relay.stop();
    }
    await sleep(500);
  }
  return figures;
}
