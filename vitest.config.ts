import { defineConfig } from 'vitest/config';

/** Two projects: the browser tests need the production bundle built first (tests/globalSetup.ts); the rest do not. */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'node', include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'] } },
      { extends: true, test: { name: 'browser', include: ['tests/browser/**/*.test.ts'], globalSetup: ['tests/globalSetup.ts'] } },
    ],
  },
});
