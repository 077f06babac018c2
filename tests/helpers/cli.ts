import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');

/** Runs a command-line tool of the project to completion. */
export function runCli(script: string, args: string[], timeout = 60_000) {
  const r = spawnSync(TSX, [join(ROOT, script), ...args], { cwd: ROOT, encoding: 'utf8', timeout });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
