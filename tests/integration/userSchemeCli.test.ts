import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { createSocket } from 'node:dgram';
import { runCliAsync } from '../helpers/cliAsync.ts';
import { tempDir } from '../helpers/tempDir.ts';

const dir = tempDir('pipefill-cli-user-');
const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

const FIXED = `export default {
  title: 'My fixed window',
  params: [{ name: 'w', unit: 'packets', min: 1, max: 1000, step: 1, default: 16, doc: 'Packets in flight' }],
  create(p) {
    return { windowSize: () => p.w, onAck() {}, onTimeout() {} };
  },
};
`;

// Each case waits on processes of its own (two of them on a 5 s hang limit): they run at once.
describe.concurrent('--scheme FILE', () => {
  it('sim runs a controller file with --set and gives the built-in numbers', async ({ expect }) => {
    const file = write('fixed.js', FIXED);
    const mine = await runCliAsync('server/cli/sim.ts', ['--scheme', file, '--set', 'w=20', '--json']);
    expect(mine.stderr).toBe('');
    expect(mine.code).toBe(0);
    const theirs = await runCliAsync('server/cli/sim.ts', ['--scheme', 'fixed', '--set', 'w=20', '--json']);
    const pick = (out: string) => JSON.parse(out).all;
    expect(pick(mine.stdout)).toEqual(pick(theirs.stdout));
    expect(pick(mine.stdout).throughputMbps).toBeGreaterThan(0);
  });

  it('writes the code-carrying run to the CSV spec line', async ({ expect }) => {
    const file = write('fixed2.js', FIXED);
    const csv = join(dir, 'run.csv');
    expect((await runCliAsync('server/cli/sim.ts', ['--scheme', file, '--csv', csv])).code).toBe(0);
    const spec = JSON.parse(readFileSync(csv, 'utf8').split('\n')[1].slice('# spec '.length));
    expect(spec.flows[0].scheme).toBe('user');
    expect(spec.code).toBe(FIXED);
  });

  it('a file with a syntax error exits 2 with the line', async ({ expect }) => {
    const file = write('bad.js', FIXED.replace("title: 'My fixed window',", "title: 'My fixed window' 'oops',"));
    const r = await runCliAsync('server/cli/sim.ts', ['--scheme', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^sim: your controller at line 2, column 28: syntax error/);
  });

  it('a callback that throws exits 2 with the callback and line', async ({ expect }) => {
    const file = write('throws.js', FIXED.replace('onAck() {}', 'onAck(ack) { if (ack.seq > 5) throw new Error("too far"); }'));
    const r = await runCliAsync('server/cli/sim.ts', ['--scheme', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^sim: your controller in onAck at line 5, column \d+: Error: too far/);
  });

  it('fetch with a bad file exits 2 with the line, before any network', async ({ expect }) => {
    const file = write('bad2.js', 'export default {\n  title: "x",\n  params: [],\n  create() { return {} }\n};\nlet let = 1;\n');
    const r = await runCliAsync('server/cli/fetch.ts', ['--scheme', file, '--server', '127.0.0.1:9']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^fetch: your controller at line 6/);
  });

  it('a hang the loop guard cannot reach ends the tool with exit 2 and says so, as does a controller that exits the tool', async ({ expect }) => {
    const file = write('regex.js', FIXED.replace('windowSize: () => p.w', "windowSize: () => (/^(a+)+$/.test('a'.repeat(40) + 'b') ? 1 : p.w)"));
    const started = Date.now();
    const r = await runCliAsync('server/cli/sim.ts', ['--scheme', file]);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/^sim: your controller stopped making progress in .* for 5 s: a regular expression that backtracks for ever, or a call that never returns\?/);
    expect(Date.now() - started).toBeLessThan(25_000);
    const exits = write('exits.js', FIXED.replace('return { windowSize', 'process.exit(0);\n    return { windowSize'));
    const e = await runCliAsync('server/cli/sim.ts', ['--scheme', exits, '--json']);
    expect([e.code, e.stdout, e.stderr]).toEqual([2, '', 'sim: your controller ended the tool (process.exit?) before it finished\n']);
  });

  it('fetch with a controller file waits on a silent server past the hang limit, and gives up as it was told', async ({ expect }) => {
    const file = write('fixed4.js', FIXED);
    const silent = createSocket('udp4');
    await new Promise<void>((r) => silent.bind(0, '127.0.0.1', () => r()));
    const r = await runCliAsync('server/cli/fetch.ts', ['--scheme', file, '--server', `127.0.0.1:${silent.address().port}`, '--give-up', '6500']);
    silent.close();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/gave up after 6500 ms/);
    expect(r.stderr).not.toMatch(/stopped making progress/);
  }, 30_000);

  it('an unreadable file exits 2', async ({ expect }) => {
    const r = await runCliAsync('server/cli/sim.ts', ['--scheme', join(dir, 'missing.js')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--scheme: cannot read .*missing\.js \(ENOENT\)/);
  });
});
