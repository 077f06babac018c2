import { defineConfig } from 'vitest/config';

/**
 * The unit tests alone: what `npm run mutate` runs against each mutant. Mutated code counts its coverage
 * per test and runs several times slower, so the longest simulations get four times their usual time;
 * two flows sharing a bottleneck for a minute, which takes a second as built, outlasts even that once the
 * metrics are instrumented, and is left out. So are the user copies' tests (a fifth of a dry run, and every
 * built-in scheme's mutant would run them): they compare a copy with the built-in run for run, and a
 * mutant counted as killed there would be counted for the copy, not for the scheme's own tests.
 */
export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/property/**/*.test.ts'],
    exclude: ['tests/unit/userSchemeCopies*.test.ts'],
    testTimeout: 120_000,
    testNamePattern: /^(?!.*identical flows converge to a fair share)/,
  },
});
