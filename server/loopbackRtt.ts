import { createSocket } from 'node:dgram';

const PINGS = 21;
const GIVE_UP_MS = 1000;

/**
 * The UDP round trip on the relay's own loopback path, median of a few pings between two sockets on
 * 127.0.0.1: the path a local client's datagrams take to the offset servers and back.
 */
export async function measureLoopbackRtt(host = '127.0.0.1'): Promise<number> {
  const echo = createSocket('udp4');
  const probe = createSocket('udp4');
  echo.on('message', (m, from) => echo.send(m, from.port, from.address));
  try {
    await new Promise<void>((resolve) => echo.bind(0, host, resolve));
    await new Promise<void>((resolve) => probe.bind(0, host, resolve));
    const samples: number[] = [];
    const port = echo.address().port;
    for (let i = 0; i < PINGS; i++) {
      const sentAt = performance.now();
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no echo on the loopback path')), GIVE_UP_MS);
        probe.once('message', () => {
          clearTimeout(timer);
          samples.push(performance.now() - sentAt);
          resolve();
        });
        probe.send(Buffer.from([i]), port, host);
      });
    }
    return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)];
  } finally {
    echo.close();
    probe.close();
  }
}

const FRESH_MS = 10_000;
let latest: { at: number; rtt: Promise<number> } | null = null;

/** The loopback round trip, measured at most once per few seconds however often it is asked. */
export function loopbackRtt(): Promise<number> {
  const now = performance.now();
  if (!latest || now - latest.at > FRESH_MS) latest = { at: now, rtt: measureLoopbackRtt() };
  return latest.rtt;
}
