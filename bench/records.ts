import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { offsetClient } from '../tests/helpers/relayChild.ts';
import { pct, relayProcess } from './relayProcess.ts';

/**
 * What writing each ranked Submit to disk before answering it costs: the Submit's round trip (sent to
 * `Result:` back) from a relay that keeps its records in memory and from one that appends and fsyncs them
 * (--data on this machine's disk), one client at a time and 16 at once (group commit shares an fsync).
 */
async function submitTimes(flags: string[], parallel: number, perClient: number): Promise<number[]> {
  const relay = await relayProcess([...flags, '--file-size', '1448', '--loss', '0']);
  const md5 = /MD5 ([0-9a-f]{32})/.exec(relay.out)![1];
  const times: number[] = [];
  const client = async (k: number) => {
    for (let session = 0; session < perClient; session++) {
      const c = await offsetClient(relay.constant);
      await c.fetchWhole();
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        if (await c.submit(`b${k}s${session}@bench`, md5)) times.push(performance.now() - t0);
      }
      c.close();
    }
  };
  await Promise.all(Array.from({ length: parallel }, (_, k) => client(k)));
  relay.stop();
  return times;
}

const ms = (xs: number[]) => `p50 ${pct(xs, 0.5).toFixed(2)} ms · p99 ${pct(xs, 0.99).toFixed(2)} ms (${xs.length} Submits)`;

export async function benchRecords(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [parallel, perClient] of [
    [1, 100],
    [16, 10],
  ]) {
    out[`Submit answer, in memory, ${parallel} at once`] = ms(await submitTimes([], parallel, perClient));
    const data = mkdtempSync(join(tmpdir(), 'pipefill-bench-'));
    out[`Submit answer, fsynced (--data), ${parallel} at once`] = ms(await submitTimes(['--data', data], parallel, perClient));
    rmSync(data, { recursive: true, force: true, maxRetries: 5 });
  }
  return out;
}
