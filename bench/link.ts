import { idleDelays, lossAndDuplication, overloadRate, ProbeEnds, startLinkProcess } from '../server/link/probe.ts';

const f = (v: number, d = 3) => v.toFixed(d);
const at = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/**
 * The emulated link's accuracy on loopback, against `npm run link` as its own process: delivered rate
 * under overload against --bandwidth, the delay it adds to an idle link against --latency (loopback's own
 * delay measured directly and subtracted), and loss and duplication over 10,000 datagrams.
 */
export async function benchLink(): Promise<Record<string, string>> {
  const ends = await ProbeEnds.open();
  const out: Record<string, string> = {};
  try {
    const direct = await idleDelays(ends, ends.receiverPort, 100, 2);
    const base = at(direct, 0.5);
    out['loopback one-way p50 (direct)'] = `${f(base)} ms`;
    for (const mbps of [2, 10, 50]) {
      const link = await startLinkProcess(['--to', `127.0.0.1:${ends.receiverPort}`, '--bandwidth', String(mbps), '--latency', '5', '--queue', 'packets', '--queue-limit', '100']);
      const rate = await overloadRate(ends, link.port, mbps, 2000);
      out[`rate under 1.5× overload at ${mbps} Mbit/s`] = `${f(rate)} Mbit/s (${f((100 * (rate - mbps)) / mbps, 2)}%)`;
      await link.stop();
    }
    for (const latency of [1, 20]) {
      const link = await startLinkProcess(['--to', `127.0.0.1:${ends.receiverPort}`, '--bandwidth', '1000', '--latency', String(latency), '--json']);
      const added = (await idleDelays(ends, link.port, 300, 3)).map((d) => d - base - latency);
      out[`idle added delay − latency at ${latency} ms, p50 / p99`] = `${f(at(added, 0.5))} / ${f(at(added, 0.99))} ms`;
      const late = JSON.parse((await link.stop()).trim().split('\n').at(-1)!).lateness;
      out[`  proxy's event lateness at ${latency} ms, p50 / p99`] = `${f(late.p50)} / ${f(late.p99)} ms`;
    }
    const link = await startLinkProcess(['--to', `127.0.0.1:${ends.receiverPort}`, '--bandwidth', '1000', '--latency', '0', '--loss', '10', '--duplicate', '20']);
    const t0 = performance.now();
    const r = await lossAndDuplication(ends, link.port, 10_000);
    out['loss at 10% over 10,000 datagrams'] = `${f(r.loss * 100, 2)}%`;
    out['duplication at 20% over the survivors'] = `${f(r.duplicate * 100, 2)}%`;
    out['10,000 datagrams through the link'] = `${f(performance.now() - t0, 0)} ms`;
    await link.stop();
  } finally {
    ends.close();
  }
  return out;
}
