// `npm start`: the relay as compiled JavaScript, serving the built app. A build made from the sources
// on disk is served as it is; otherwise it is built first, which needs the development dependencies
// (`npm ci`): after `npm ci --omit=dev` a stale or missing build is an error that says what to run.
// `--dev` serves the app through Vite with hot reload instead (development dependencies again).
// `--help` builds nothing: without a build of the sources on disk (a fresh clone has none) the help is
// the sources' own, when tsx is there to run them; else the build's.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIsCurrent, RELAY_MAIN, ROOT } from './buildInputs.mjs';

const args = process.argv.slice(2);
const dev = args.includes('--dev');
const help = args.includes('--help') || args.includes('-h');
const tsx = join(ROOT, 'node_modules/.bin/tsx');
const devTools = existsSync(join(ROOT, 'node_modules/.bin/vite')) && existsSync(join(ROOT, 'node_modules/.bin/esbuild'));

/** The relay from its TypeScript sources, through tsx; this process exits as it does. */
function runFromSources() {
  const r = spawnSync(tsx, ['server/main.ts', ...args], { cwd: ROOT, stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

const current = !dev && buildIsCurrent();
if (help && !current && existsSync(tsx)) runFromSources();
if (dev || (!current && !help)) {
  if (!devTools) {
    console.error('pipefill: the app is not built, or its sources changed since it was: build it with the development dependencies installed (npm ci && npm run build), then npm start.');
    process.exit(1);
  }
  if (dev) runFromSources();
  const { build } = await import('./build.mjs');
  build();
}
if (!existsSync(RELAY_MAIN)) {
  console.error('pipefill: the relay is not built (npm ci && npm run build).');
  process.exit(1);
}
// The relay's main runs when it is the script node was started with: this process becomes it.
process.argv[1] = RELAY_MAIN;
await import(pathToFileURL(RELAY_MAIN).href);
