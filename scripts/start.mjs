// `npm start`: the relay as compiled JavaScript, serving the built app. A build made from the sources
// on disk is served as it is; otherwise it is built first, which needs the development dependencies
// (`npm ci`): after `npm ci --omit=dev` a stale or missing build is an error that says what to run.
// `--dev` serves the app through Vite with hot reload instead (development dependencies again).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIsCurrent, RELAY_MAIN, ROOT } from './buildInputs.mjs';

const args = process.argv.slice(2);
const devTools = existsSync(join(ROOT, 'node_modules/.bin/vite')) && existsSync(join(ROOT, 'node_modules/.bin/esbuild'));

if (args.includes('--dev') || (!buildIsCurrent() && !args.includes('--help') && !args.includes('-h'))) {
  if (!devTools) {
    console.error('pipefill: the app is not built, or its sources changed since it was: build it with the development dependencies installed (npm ci && npm run build), then npm start.');
    process.exit(1);
  }
  if (args.includes('--dev')) {
    const r = spawnSync(join(ROOT, 'node_modules/.bin/tsx'), ['server/main.ts', ...args], { cwd: ROOT, stdio: 'inherit' });
    process.exit(r.status ?? 1);
  }
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
