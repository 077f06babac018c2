import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/tempDir.ts';

const dir = tempDir('pipefill-stress-');

/** The arguments after `npm run sim --` in the printed command. */
const simArgs = (command: string) => command.replace(/^npm run sim -- /, '').split(' ');

describe('npm run stress', () => {
  it('prints the worst trace, and the command it prints gives its score exactly; threads change nothing', () => {
    const out = join(dir, 'two.trace');
    const r = runCli('server/cli/stress.ts', ['--scheme', 'aimd', '--set', 'b=0.7', '--budget', '20', '--duration', '10', '--threads', '2', '--seed', '4', '--out', out, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ worst: { trace: out }, runs: 20 });
    expect(result.worst.command).toBe(`npm run sim -- --scheme aimd --set b=0.7 --seed 4 --trace ${out} --json`);
    expect(result.worst.omniscientScore).toBeGreaterThan(result.worst.score);
    expect(result.runsPerSecond).toBeGreaterThan(0);
    const sim = runCli('server/cli/sim.ts', simArgs(result.worst.command));
    expect(JSON.parse(sim.stdout).all.score).toBe(result.worst.score);
    const contest = runCli('server/cli/sim.ts', ['--scheme', 'aimd', '--set', 'b=0.7', '--seed', '4', '--json']);
    expect(result.contest.score).toBe(JSON.parse(contest.stdout).all.score);
    const one = join(dir, 'one.trace');
    expect(runCli('server/cli/stress.ts', ['--scheme', 'aimd', '--set', 'b=0.7', '--budget', '20', '--duration', '10', '--threads', '1', '--seed', '4', '--out', one, '--json']).code).toBe(0);
    expect(readFileSync(one, 'utf8')).toBe(readFileSync(out, 'utf8'));
  });

  it('breaks the user’s own controller file too, and refuses a bad command line', () => {
    const file = join(dir, 'mine.js');
    writeFileSync(
      file,
      `export default { title: 'Mine', params: [{ name: 'w', unit: 'packets', min: 1, max: 100, step: 1, default: 8, doc: 'window' }],
        create(p) { return { windowSize: () => p.w, onAck() {}, onTimeout() {} }; } };`,
    );
    const r = runCli('server/cli/stress.ts', ['--scheme', file, '--budget', '16', '--duration', '5', '--out', join(dir, 'mine.trace'), '--json']);
    expect(r.code).toBe(0);
    const sim = runCli('server/cli/sim.ts', simArgs(JSON.parse(r.stdout).worst.command));
    expect(JSON.parse(sim.stdout).all.score).toBe(JSON.parse(r.stdout).worst.score);
    const bad = runCli('server/cli/stress.ts', ['--scheme', 'aimd', '--budget', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--budget/);
    expect(runCli('server/cli/stress.ts', ['--budget', '5']).stderr).toMatch(/--scheme/);
  });
});
