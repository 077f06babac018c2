import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { TEST_BUNDLE } from './helpers/bundle.ts';

const ROOT = resolve(import.meta.dirname, '..');
/** Everything the bundle is built from: the page's sources, the model, the live edge, assets, the copies' generator, build settings, dependencies. */
const INPUTS = ['web', 'shared', 'live', 'public', 'scripts/schemeCopies.ts', 'vite.config.ts', 'tsconfig.base.json', 'tsconfig.json', 'package-lock.json'];
const STAMP = join(TEST_BUNDLE, '.inputs-sha1');

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => filesUnder(join(path, e.name)));
}

/** A digest of the names and contents of every input of the bundle. */
function inputsDigest(): string {
  const hash = createHash('sha1');
  for (const file of INPUTS.flatMap((p) => filesUnder(join(ROOT, p)))) hash.update(file).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/**
 * The browser tests run against the production bundle, as `npm start` serves it, built into its own folder
 * so a test run never overwrites dist/. It is rebuilt only when one of its inputs changed since the last
 * build. Vitest sets NODE_ENV=test, which would give React's development build: the build runs with
 * NODE_ENV=production.
 */
export default async function buildBundle(): Promise<void> {
  const digest = inputsDigest();
  if (existsSync(STAMP) && readFileSync(STAMP, 'utf8') === digest) return;
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: join(ROOT, 'vite.config.ts'), mode: 'production', logLevel: 'warn', build: { outDir: TEST_BUNDLE, emptyOutDir: true } });
  } finally {
    process.env.NODE_ENV = before;
  }
  writeFileSync(STAMP, digest);
}
