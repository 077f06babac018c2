import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tsxArgs } from '../helpers/cli.ts';
import { runCliAsync } from '../helpers/cliAsync.ts';
import { contestRelay } from '../helpers/contest.ts';
import { until } from '../helpers/relay.ts';
import { tempDir } from '../helpers/tempDir.ts';

/** `npm run contest` against a real relay process: a relay restart while it waits for the scores. */

const GOOD_FILE = join(ROOT, 'tests/fixtures/contestAimd.mjs');
const PUBLIC = 'Verizon-LTE-short';

/** A TCP port free right now on 127.0.0.1, so a restarted relay can take the same one. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/** The sandbox folders in the temporary directory whose owner file names process `pid`. */
const sandboxFoldersOf = (pid: number) =>
  readdirSync(tmpdir())
    .filter((n) => n.startsWith('pipefill-contest-'))
    .map((n) => join(tmpdir(), n))
    .filter((dir) => existsSync(join(dir, 'owner.pid')) && readFileSync(join(dir, 'owner.pid'), 'utf8') === String(pid));

describe('npm run contest: a relay restart', () => {
  it('keeps waiting through kill -9 and a restart on the same port, then prints the scores', async () => {
    const data = tempDir('pipefill-contest-cli-data-');
    const flags = ['--data', data, '--contest-trace', PUBLIC, '--http-port', String(await freePort())];
    const first = await contestRelay(flags);
    const tokens = join(data, 'tokens.json');
    const cli = spawn(process.execPath, tsxArgs('server/cli/contest.ts', ['submit', GOOD_FILE, '--id', 'kim@red', '--server', first.url, '--tokens', tokens]), { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    cli.stdout.on('data', (d) => (stdout += d));
    cli.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((r) => cli.on('close', (code) => r(code)));
    let second: Awaited<ReturnType<typeof contestRelay>> | null = null;
    try {
      expect(await until(() => stdout.includes('submission ') || cli.exitCode !== null, 60_000), stderr).toBe(true);
      const left = sandboxFoldersOf(first.child.pid!);
      expect(left).toHaveLength(1);
      first.child.kill('SIGKILL');
      await first.stop();
      expect(await until(() => stderr.includes('not answering') || cli.exitCode !== null, 30_000), stderr).toBe(true);
      second = await contestRelay(flags);
      expect(second.url).toBe(first.url);
      // the killed relay's sandbox folder is removed by the next one
      expect(left.filter(existsSync)).toEqual([]);
      const code = await exited;
      expect([code, stderr]).toEqual([0, 'contest: the relay is not answering; waiting for it…\n']);
      const [head, ...scores] = stdout.trimEnd().split('\n');
      expect(head).toMatch(/^submission [0-9a-f]+ /);
      expect(scores).toHaveLength(1);
      expect(scores[0]).toMatch(new RegExp(`^${PUBLIC} +[0-9.]+ Mbit/s`));
      const submission = /^submission ([0-9a-f]+)/.exec(head)?.[1] ?? '';
      const later = await runCliAsync('server/cli/contest.ts', ['status', submission, '--server', second.url]);
      expect([later.code, later.stdout]).toEqual([0, `${scores[0]}\n`]);
    } finally {
      if (cli.exitCode === null) cli.kill('SIGINT');
      await exited;
      if (first.child.exitCode === null) await first.stop();
      await second?.stop();
    }
  }, 240_000);
});
