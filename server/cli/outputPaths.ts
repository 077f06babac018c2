import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { quote } from '../../shared/text/quote.ts';
import { UsageError } from './usageError.ts';

/** Refuses an output file that cannot be written, before the work whose result it would hold. */
export function checkWritable(flag: string, path: string): void {
  const at = resolve(path);
  try {
    if (existsSync(at) && statSync(at).isDirectory()) throw new Error('a directory');
    accessSync(existsSync(at) ? at : dirname(at), constants.W_OK);
  } catch {
    throw new UsageError(`--${flag}: cannot write ${quote(path)} (no such directory, or not allowed)`);
  }
}

/**
 * Makes an output directory and its missing parents one level at a time, before the work whose results
 * it will hold. Node's recursive mkdir never returns where every level it makes fails with ENOENT (under
 * /proc): made level by level, the first failure is the answer.
 */
export function makeOutputDirectory(flag: string, path: string): void {
  const missing: string[] = [];
  let at = resolve(path);
  while (!existsSync(at) && dirname(at) !== at) {
    missing.unshift(at);
    at = dirname(at);
  }
  try {
    if (!statSync(at).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    for (const dir of missing) mkdirSync(dir);
    accessSync(resolve(path), constants.W_OK);
  } catch (e) {
    throw new UsageError(`--${flag}: cannot make the directory ${quote(path)} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}
