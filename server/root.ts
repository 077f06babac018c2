import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's root: the nearest folder above `moduleUrl` with the package.json. The same from the
 * sources (server/…) and from the compiled relay (build/relay/server/…), so dist/ and public/ are found
 * from either.
 */
export function projectRoot(moduleUrl: string): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return resolve(dir);
}
