import { defineConfig } from 'vitest/config';

/**
 * The unit tests alone: what `npm run mutate` runs against each mutant. Mutated code counts its coverage
 * per test and runs several times slower, so the longest simulations get four times their usual time.
 */
export default defineConfig({ test: { include: ['tests/unit/**/*.test.ts'], testTimeout: 120_000 } });
