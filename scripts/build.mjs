// `npm run build`: the app (Vite, into dist/, each text file also brotli- and gzip-compressed for the
// static server) and the relay bundled into JavaScript by esbuild (build/relay/: its main and the offset
// servers' worker, the libraries it uses inside, so it loads in a fraction of the time of its modules
// one by one), then the inputs' fingerprint, so that `npm start` serves this build until the sources
// change. Needs the development dependencies.
import { spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { fingerprint, ROOT, STAMP } from './buildInputs.mjs';

/** The relay's main and the module its worker threads load (named by URL, so no import leads to it). */
const RELAY_ENTRIES = ['server/main.ts', 'server/offsetWorker.ts'];
/** CommonJS libraries in an ES module bundle call require: give them Node's. Vite (for --dev) and esbuild (the sandbox's bundler from source) stay outside. */
const CJS_REQUIRE = "import { createRequire as pipefillRequire } from 'node:module'; const require = pipefillRequire(import.meta.url);";
const COMPRESSED = new Set(['.html', '.js', '.css', '.svg', '.json', '.txt', '.map', '.down', '.up', '.md']);

function run(tool, args) {
  const r = spawnSync(join(ROOT, 'node_modules/.bin', tool), args, { cwd: ROOT, stdio: 'inherit' });
  if (r.error) throw new Error(`${tool} cannot run (${r.error.code ?? r.error.message}): building needs the development dependencies (npm ci)`);
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** Writes FILE.br and FILE.gz beside each text file worth compressing, for the static server to send as they are. */
function precompress(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) precompress(path);
    else if (COMPRESSED.has(extname(path)) && statSync(path).size > 1024) {
      const data = readFileSync(path);
      writeFileSync(`${path}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
      writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }));
    }
  }
}

/**
 * The relay bundled into `outdir` (build/relay/, where `npm start` runs it from): its main, the offset
 * servers' worker and the contest sandbox's process, each loading nothing from node_modules but Vite and esbuild.
 */
export function bundleRelay(outdir = join(ROOT, 'build/relay')) {
  rmSync(outdir, { recursive: true, force: true });
  run('esbuild', [
    ...RELAY_ENTRIES,
    '--bundle',
    '--platform=node',
    '--format=esm',
    '--target=node20',
    '--splitting',
    `--outdir=${outdir}`,
    '--outbase=.',
    '--sourcemap',
    '--external:vite',
    '--external:esbuild',
    '--log-level=warning',
    `--banner:js=${CJS_REQUIRE}`,
  ]);
  copyFileSync(join(ROOT, 'server/threadBoot.mjs'), join(outdir, 'server/threadBoot.mjs'));
  // The contest's sandbox process runs this bundle alone (server/contest/sandbox.ts copies it for each relay).
  run('esbuild', ['server/contest/sandboxChild.ts', '--bundle', '--platform=node', '--format=esm', `--outfile=${join(outdir, 'sandboxChild.mjs')}`, '--log-level=warning']);
}

export function build() {
  const inputs = fingerprint();
  rmSync(STAMP, { force: true });
  run('vite', ['build']);
  precompress(join(ROOT, 'dist'));
  bundleRelay();
  writeFileSync(STAMP, JSON.stringify(inputs));
}

if (import.meta.url === `file://${process.argv[1]}`) build();
