import { fetches, MANY } from './relayLoad.ts';
import { relayProcess, sleep } from './relayProcess.ts';

/**
 * 200 bridged sessions each fetching the whole 1 MB file at once, with the offset servers in threads of
 * their own and on the main thread (--single-thread): the time, the relay's CPU, the time its main thread
 * was ready to run but waited for a CPU (on a busy machine), and the fetches' retransmission timeouts.
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
      const r = await fetches(relay, 200);
      const cores = (relay.cpuMs() - cpu0) / r.ms;
      const waiting = (relay.waitedMs() - waited0) / r.ms;
      figures[`200 whole-file fetches through the bridge (${label})`] =
        `${r.right} / 200 Result: true in ${(r.ms / 1000).toFixed(1)} s; relay ran ${cores.toFixed(2)} cores, its main thread ready to run but waiting for a CPU ${(waiting * 100).toFixed(0)}% of the time; ${r.timeouts} timeouts, ${r.penalty} requests refused for want of a token, in all`;
    } finally {
      relay.stop();
    }
    await sleep(500);
  }
  return figures;
}
