import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTraceCsv } from '../../shared/csv/trace.ts';
import { ROOT, runCli, runInProcess } from '../helpers/cli.ts';
import { testRelay, until } from '../helpers/relay.ts';
import { RELAY_FLAGS } from '../../server/relayFlags.ts';
import { relayMain } from '../../server/main.ts';
import { fetchMain } from '../../server/cli/fetch.ts';
import { runCliAsync } from '../helpers/cliAsync.ts';
import { flagName } from '../../server/cli/flags.ts';
import { tempDir } from '../helpers/tempDir.ts';

describe('npm start: the relay process', () => {
  it('prints one line per service, answers on them, and stops cleanly on Ctrl-C', async () => {
    const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['server/main.ts', '--http-port', '0', '--udp-port', '0', '--variable-port', '0', '--echo-port', '0'], { cwd: ROOT });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    expect(await until(() => /operator .*\n/.test(out), 20_000)).toBe(true);
    const lines = out.trim().split('\n');
    expect(lines.map((l) => l.split(/\s{2,}/)[0])).toEqual(['playground', 'bridge', 'offset server', 'offset server', 'echo server', 'operator']);
    expect(out).toMatch(/MD5 [0-9a-f]{32}/);
    const url = /playground\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1];
    const info = await (await fetch(`${url}/api/relay`)).json();
    expect(info.offsetConstant).toMatch(/^127\.0\.0\.1:\d+$/);
    const md5 = /MD5 ([0-9a-f]{32})/.exec(out)![1];
    for (const path of ['/api/relay', '/api/leaderboard', '/api/leaderboard.csv', '/']) {
      expect(await (await fetch(`${url}${path}`)).text(), path).not.toContain(md5); // nothing served grades a Submit
    }
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  }, 30_000);

  it('binds every service to 127.0.0.1 by default', async () => {
    const relay = await testRelay();
    const http = relay.http.address();
    expect(typeof http === 'object' && http?.address).toBe('127.0.0.1');
    expect(relay.lines.join('\n')).not.toMatch(/0\.0\.0\.0/);
    await relay.close();
  });

  it('bad flags: a message naming the flag, exit code 2, nothing started', async () => {
    const cases: [string[], RegExp][] = [
      [['--udp-port', '99999'], /--udp-port must be a whole number from 0 to 65535/],
      [['--loss', '200'], /--loss: loss must be a number from 0 to 100 %/],
      [['--key', 'mac'], /--key must be ip or ip:port/],
      [['--allow', 'everything'], /--allow must be HOST:PORT/],
      [['--allow-origin', 'ftp://x'], /--allow-origin must be URL \(got "ftp:\/\/x"\)/],
      [['--bucket-model', 'leaky'], /--bucket-model: bucketModel must be one of course, ideal/],
      [['--frobnicate'], /Unknown option '--frobnicate'/],
      [['--max-per-client', '0'], /--max-per-client must be a whole number from 1 to 10000 \(got "0"\)/],
      [['--delay', 'soon'], /--delay must be a number from 0 to 60000 \(got "soon"\)/],
      [['--variable-model', 'lazy'], /--variable-model: variableModel must be one of course, schedule/],
      [['--tournament=yes'], /Option '--tournament' does not take an argument/],
    ];
    const neverStopped = () => {
      throw new Error('the relay started');
    };
    for (const [args, message] of cases) {
      const r = await runInProcess('relay', (argv, io) => relayMain(argv, io, neverStopped), args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^relay: ${message.source}.*\nRun with --help for the options.\n$`));
      expect(r.stdout).toBe('');
    }
    const script = runCli('server/main.ts', ['--file-size', '0']);
    expect(script.code).toBe(2);
    expect(script.stderr).toBe('relay: --file-size must be a whole number from 1 to 1000000000 (got "0")\nRun with --help for the options.\n');
  });

  it('--help lists every flag of the relay table and of the policy schema, with defaults', async () => {
    const r = await runInProcess('relay', relayMain, ['--help']);
    expect(r.code).toBe(0);
    for (const { param } of RELAY_FLAGS) expect(r.stdout).toMatch(new RegExp(`^  --${flagName(param.name)} `, 'm'));
    expect(r.stdout).toMatch(/^ {2}--udp-port +0…65535 +constant-rate offset server \(default 9801\)$/m);
    expect(r.stdout).toMatch(/^ {2}--key +ip\|ip:port +.* \(default ip:port\)$/m);
    expect(r.stdout).toMatch(/^ {2}--allow +HOST:PORT +another target/m);
    expect(r.stdout).toContain('--variable-model');
  });
});

describe('npm run fetch', () => {
  it('fetches the file from a real server, prints Result, Time and Penalty, and writes the trace', async () => {
    const relay = await testRelay({ fileSize: 40_000 });
    const dir = tempDir();
    const csv = join(dir, 'fetch.csv');
    const r = await runCliAsync('server/cli/fetch.ts', ['--server', relay.info.offsetConstant, '--csv', csv]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Result: true\nTime: \d+\nPenalty: \d+\n/);
    expect(r.stdout).toContain(relay.md5);
    const trace = parseTraceCsv(readFileSync(csv, 'utf8'));
    expect(trace.spec).toMatchObject({ live: { server: relay.info.offsetConstant, scheme: 'token-pacer', via: 'udp' } });
    expect(trace.log.count(9 /* reply */)).toBe(Math.ceil(40_000 / 1448));
    await relay.close();
  }, 30_000);

  // The script itself runs above; its flags and its give-up go through the same main here, in this process.
  it('bad flags and an unreachable server: clear messages', async () => {
    const fetchCli = (...args: string[]) => runInProcess('fetch', fetchMain, args);
    expect((await fetchCli('--server', 'nowhere')).stderr).toMatch(/--server must be HOST:PORT/);
    expect((await fetchCli('--server', '127.0.0.1:0')).stderr).toMatch(/--server must be HOST:PORT with a port from 1 to 65535 \(got "127\.0\.0\.1:0"\)/);
    for (const host of ['nosuch.invalid', '256.1.1.1']) {
      const r = await fetchCli('--server', `${host}:9801`);
      expect([r.code, r.stderr]).toEqual([2, `fetch: --server: no IPv4 address found for "${host}"\nRun with --help for the options.\n`]);
    }
    // An output it could not write is refused before the fetch, not after its Submit.
    expect((await fetchCli('--csv', '/nonexistent/dir/x.csv')).stderr).toMatch(/--csv: cannot write "\/nonexistent\/dir\/x\.csv"/);
    expect((await fetchCli('--scheme', 'warp')).stderr).toMatch(/--scheme: unknown scheme "warp"/);
    expect((await fetchCli('--set', 'margin=500')).stderr).toMatch(/margin must be a number from 0 to 50 %/);
    const r = await fetchCli('--server', '127.0.0.1:9', '--give-up', '800');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/nothing listens on 127\.0\.0\.1:9 over UDP \(is the offset server running\?\)|gave up after 800 ms/);
  });
});

describe('the relay in dev mode', () => {
  it('serves the app through Vite (hot reload client, source modules) behind the same bridge and info', async () => {
    const relay = await testRelay({ dev: true });
    const html = await (await fetch(`${relay.url}/`)).text();
    expect(html).toContain('/@vite/client');
    const main = await fetch(`${relay.url}/main.tsx`);
    expect(main.headers.get('content-type')).toMatch(/javascript/);
    expect((await (await fetch(`${relay.url}/api/relay`)).json()).echo).toBe(relay.info.echo);
    await relay.close();
  }, 30_000);
});
