import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, type ExpectStatic, it } from 'vitest';
import { parseTraceCsv } from '../../shared/csv/trace.ts';
import { K } from '../../shared/log/kinds.ts';
import { generateFile } from '../../shared/offset/file.ts';
import type { OffsetServer } from '../../server/offsetServer.ts';
import { testOffsetServer } from '../helpers/offsetServer.ts';
import { ROOT, tsxArgs } from '../helpers/cli.ts';
import { runCliAsync } from '../helpers/cliAsync.ts';
import { tempDir } from '../helpers/tempDir.ts';

const dir = tempDir('pipefill-fetch-cli-');

/** An offset server slow enough (50 replies a second for a 1 MB file) that a fetch is still under way when signalled. */
function slowServer(): Promise<OffsetServer> {
  return testOffsetServer({ rate: 50, loss: 0 }, { file: generateFile(1_000_000, 5), maxSessions: 100, records: { sessions: 16, eventsPerSession: 100 } });
}

/** Runs fetch from a server of its own, sends it `signal` once the server has handled 20 of its datagrams (within 15 s), and waits for its end. */
async function fetchSignalled(signal: NodeJS.Signals, args: string[]) {
  const server = await slowServer();
  const child = spawn(process.execPath, tsxArgs('server/cli/fetch.ts', ['--server', `127.0.0.1:${server.port}`, ...args]), { cwd: ROOT });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  for (let i = 0; i < 300 && server.handled < 20 && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 50));
  child.kill(signal);
  const code = await closed;
  await server.close();
  return { code, stdout, stderr };
}

const FIXED = `export default {
  title: 'Fixed',
  params: [],
  create() {
    return { windowSize: () => 8, onAck() {}, onTimeout() {} };
  },
};
`;

const HANGS = `export default {
  title: 'Hangs',
  params: [],
  mode: 'burst',
  create() {
    return {
      windowSize: () => 4,
      burstSize: () => (/^(a+)+$/.test('a'.repeat(40) + 'b') ? 1 : 4),
      onAck() {},
      onTimeout() {},
    };
  },
};
`;

/** Checks the trace a stopped fetch wrote to `csv`: the requests it sent and some replies, as they came. */
function expectTraceSoFar(expect: ExpectStatic, csv: string): void {
  const { log } = parseTraceCsv(readFileSync(csv, 'utf8'));
  expect(log.count(K.send)).toBeGreaterThan(10);
  expect(log.count(K.reply)).toBeGreaterThan(0);
}

describe.concurrent('npm run fetch', () => {
  it('on SIGINT says so, writes the trace so far to --csv and exits 130', async ({ expect }) => {
    const csv = join(dir, 'partial.csv');
    const r = await fetchSignalled('SIGINT', ['--csv', csv]);
    expect([r.code, r.stdout]).toEqual([130, '']);
    expect(r.stderr).toBe(`fetch: stopped by SIGINT\nfetch: the trace so far is in ${csv}\n`);
    expectTraceSoFar(expect, csv);
  });

  it('does the same with a controller file, which runs in a thread of its own', async ({ expect }) => {
    const file = join(dir, 'fixed.js');
    writeFileSync(file, FIXED);
    const csv = join(dir, 'partial-user.csv');
    const r = await fetchSignalled('SIGINT', ['--scheme', file, '--csv', csv]);
    expect([r.code, r.stdout]).toEqual([130, '']);
    expect(r.stderr).toBe(`fetch: stopped by SIGINT\nfetch: the trace so far is in ${csv}\n`);
    expectTraceSoFar(expect, csv);
  });

  it('on SIGTERM says so, writes the trace so far and exits 130', async ({ expect }) => {
    const csv = join(dir, 'partial-term.csv');
    const r = await fetchSignalled('SIGTERM', ['--csv', csv]);
    expect([r.code, r.stdout, r.stderr]).toEqual([130, '', `fetch: stopped by SIGTERM\nfetch: the trace so far is in ${csv}\n`]);
    expectTraceSoFar(expect, csv);
  });

  it('on giving up says so, writes the trace so far to --csv and exits 1', async ({ expect }) => {
    const server = await slowServer();
    const csv = join(dir, 'given-up.csv');
    const r = await runCliAsync('server/cli/fetch.ts', ['--server', `127.0.0.1:${server.port}`, '--give-up', '1000', '--csv', csv]);
    await server.close();
    expect([r.code, r.stdout, r.stderr]).toEqual([1, '', `fetch: gave up after 1000 ms without the whole file\nfetch: the trace so far is in ${csv}\n`]);
    expectTraceSoFar(expect, csv);
  });

  it('names the callback a controller file hangs in, past the loop guard', async ({ expect }) => {
    const file = join(dir, 'hangs.js');
    writeFileSync(file, HANGS);
    const started = Date.now();
    const server = await slowServer();
    const r = await runCliAsync('server/cli/fetch.ts', ['--scheme', file, '--server', `127.0.0.1:${server.port}`]);
    await server.close();
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/^fetch: your controller stopped making progress in burstSize \(or after it\) for 5 s: a regular expression/);
    expect(Date.now() - started).toBeLessThan(25_000);
  });
});
