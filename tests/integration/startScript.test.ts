import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.ts';
import { tempDir } from '../helpers/tempDir.ts';

/**
 * `npm start -- --help` (scripts/start.mjs) where the relay was never built, as on a fresh clone, and
 * where only its build is, as after `npm ci --omit=dev`: the flags' help either way, nothing built.
 */

const copies: string[] = [];
afterEach(() => {
  for (const root of copies.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A copy of the relay's sources in a folder of its own, as a fresh clone has them: no dist/, no build/. */
function freshClone(): string {
  const root = tempDir('pipefill-clone-');
  copies.push(root);
  for (const dir of ['scripts', 'server', 'shared', 'live', 'web']) cpSync(join(ROOT, dir), join(root, dir), { recursive: true });
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.base.json']) copyFileSync(join(ROOT, file), join(root, file));
  return root;
}

/** `npm start -- ARGS` in `root`, to its exit. */
function start(root: string, args: string[]) {
  const r = spawnSync(process.execPath, [join(root, 'scripts/start.mjs'), ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('npm start -- --help without a build', () => {
  it("prints the relay's flags from its sources on a fresh clone with the development dependencies, and builds nothing", () => {
    const root = freshClone();
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
    for (const flag of ['--help', '-h']) {
      const r = start(root, [flag]);
      expect([flag, r.code, r.stderr]).toEqual([flag, 0, '']);
      expect(r.stdout).toMatch(/^Usage: npm start -- \[options\]/);
      expect(r.stdout).toContain('--http-port');
    }
    expect([existsSync(join(root, 'build')), existsSync(join(root, 'dist'))]).toEqual([false, false]);
  }, 120_000);

  it('prints them from the build where only the build is (no development dependencies), and says what to run where neither is', () => {
    const root = freshClone();
    const neither = start(root, ['--help']);
    expect([neither.code, neither.stderr]).toEqual([1, 'pipefill: the relay is not built (npm ci && npm run build).\n']);
    // bundled as `npm run build` bundles it, into the copy, which has no node_modules
    const script = `import { bundleRelay } from ${JSON.stringify(join(ROOT, 'scripts/build.mjs'))}; bundleRelay(${JSON.stringify(join(root, 'build/relay'))});`;
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    const r = start(root, ['--help']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain('--http-port');
  }, 120_000);
});
