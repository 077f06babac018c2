import { build } from 'vite';
import { resolve } from 'node:path';

/** The browser tests run against the production build, as the relay serves it: build it once. */
export default async function setup(): Promise<void> {
  await build({ configFile: resolve(import.meta.dirname, '../vite.config.ts'), logLevel: 'warn' });
}
