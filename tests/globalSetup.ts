import { build } from 'vite';
import { resolve } from 'node:path';
import { TEST_BUNDLE } from './helpers/bundle.ts';

/**
 * The browser tests run against the production bundle, as `npm start` serves it, built once into its own
 * folder so a test run never overwrites dist/. Vitest sets NODE_ENV=test, which would give React's
 * development build: the build runs with NODE_ENV=production.
 */
export default async function setup(): Promise<void> {
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: resolve(import.meta.dirname, '../vite.config.ts'), mode: 'production', logLevel: 'warn', build: { outDir: TEST_BUNDLE, emptyOutDir: true } });
  } finally {
    process.env.NODE_ENV = before;
  }
}
