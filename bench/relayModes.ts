import { readFileSync } from 'node:fs';
import { fetches, MANY } from './relayLoad.ts';
import { pct, relayProcess, sleep } from './relayProcess.ts';

/** The bytes waiting in the kernel's receive queue of the UDP socket bound to `port` (/proc/net/udp), or 0. */
function receiveQueue(port: number): number {
  const local = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  for (const line of readFileSync('/proc/net/udp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f[1]?.endsWith(local)) return Number.parseInt(f[4].split(':')[1], 16);
  }
  return 0;
}

/**
 * 200 bridged sessions each fetching the whole 1 MB file at once, with the offset servers in threads of
 * their own and on the main thread (--single-thread): the time, the relay's CPU, the time its main thread
 * was ready to run but waited for a CPU (on a busy machine), the fetches' retransmission timeouts, and the
 * datagrams waiting for the constant-rate server in its socket's kernel queue (sampled every 20 ms): on one
 * thread the server reads a bounded batch per turn of an event loop that also serves every WebSocket.
 */
export async function benchRelayModes(): Promise<Record<string, string>> {
  const figures: Record<string, string> = {};
  for (const [label, extra] of [
    ['threads', []],
    ['single thread', ['--single-thread']],
  ] as const) {
    const relay = await relayProcess([...MANY, ...extra]);
    try {
      await sleep(500);
      const cpu0 = relay.cpuMs();
      const waited0 = relay.waitedMs();
      const queued: number[] = [];
      const sampler = setInterval(() => queued.push(receiveQueue(relay.constant)), 20);
      const r = await fetches(relay, 200).finally(() => clearInterval(sampler));
      const cores = (relay.cpuMs() - cpu0) / r.ms;
      const waiting = (relay.waitedMs() - waited0) / r.ms;
      figures[`200 whole-file fetches through the bridge (${label})`] =
        `${r.right} / 200 Result: true in ${(r.ms / 1000).toFixed(1)} s; relay ran ${cores.toFixed(2)} cores, its main thread ready to run but waiting for a CPU ${(waiting * 100).toFixed(0)}% of the time; ${r.timeouts} timeouts, ${r.penalty} requests refused for want of a token, in all; the server's socket queue p99 ${(pct(queued, 0.99) / 1e6).toFixed(2)} MB, most ${(Math.max(...queued) / 1e6).toFixed(2)} MB`;
    } finally {
      relay.stop();
    }
    await sleep(500);
  }
  return figures;
}
