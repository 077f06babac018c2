import { defineConfig } from 'vitest/config';

/** The unit tests alone: what `npm run mutate` runs against each mutant. */
export default defineConfig({ test: { include: ['tests/unit/**/*.test.ts'], testTimeout: 30_000 } });
