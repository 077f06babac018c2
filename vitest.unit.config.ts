import { defineConfig } from 'vitest/config';

/**
 * The unit tests alone: what `npm run mutate` runs against each mutant. Mutated code counts its coverage
 * per test and runs several times slower, so the longest simulations get four times their usual time;
 * two flows sharing a bottleneck for a minute, which takes a second as built, outlasts even that once the
 * metrics are instrumented, and is left out.
 */
export default defineConfig({
  test: { include: ['tests/unit/**/*.test.ts'], testTimeout: 120_000, testNamePattern: /^(?!.*identical flows converge to a fair share)/ },
});
