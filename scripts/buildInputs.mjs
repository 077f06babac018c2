// What `npm start` serves is built from: the sources' content, fingerprinted so that a start can tell
// whether the build in dist/ and build/relay/ is theirs without building again.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const RELAY_MAIN = join(ROOT, 'build/relay/server/main.js');
export const APP_INDEX = join(ROOT, 'dist/index.html');
/** The fingerprint of the inputs the last build was made from. */
export const STAMP = join(ROOT, 'build/relay/inputs.json');

const DIRS = ['web', 'shared', 'live', 'server', 'public'];
const FILES = ['package.json', 'package-lock.json', 'vite.config.ts', 'scripts/build.mjs'];

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

/**
 * Each input's size, modification time and SHA-1, and one digest of them all. A file whose size and time
 * match `known` (the last build's) keeps its hash unread, so a start costs a stat per file; a checkout
 * that only touched times rehashes and finds the same content.
 */
export function fingerprint(known = {}, root = ROOT) {
  const files = {};
  const paths = [...DIRS.flatMap((d) => (existsSync(join(root, d)) ? [...walk(join(root, d))] : [])), ...FILES.map((f) => join(root, f)).filter(existsSync)];
  for (const path of paths) {
    const name = relative(root, path);
    const { size, mtimeMs } = statSync(path);
    const was = known[name];
    const sha1 = was && was.size === size && was.mtimeMs === mtimeMs ? was.sha1 : createHash('sha1').update(readFileSync(path)).digest('hex');
    files[name] = { size, mtimeMs, sha1 };
  }
  const digest = createHash('sha1')
    .update(
      Object.keys(files)
        .sort()
        .map((n) => `${n} ${files[n].sha1}`)
        .join('\n'),
    )
    .digest('hex');
  return { digest, files };
}

/** The last build's fingerprint, or null when there is no whole build. */
export function lastBuild() {
  if (!existsSync(STAMP) || !existsSync(RELAY_MAIN) || !existsSync(APP_INDEX)) return null;
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    return null;
  }
}

/** Whether the build on disk was made from the sources on disk. */
export function buildIsCurrent() {
  const last = lastBuild();
  return last !== null && fingerprint(last.files).digest === last.digest;
}
