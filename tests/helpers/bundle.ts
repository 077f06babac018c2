import { resolve } from 'node:path';

/** Where tests/globalSetup.ts builds the production bundle the browser tests load. */
export const TEST_BUNDLE = resolve(import.meta.dirname, '../../build/test-web');
