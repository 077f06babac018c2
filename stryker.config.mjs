/**
 * Mutation testing of the model (shared/) and the page's state codec (web/state/) against the unit tests:
 * `npm run mutate` prints the mutation score. Not part of `npm test` (it takes many minutes on two cores);
 * `npm run mutate -- --mutate 'shared/metrics/**\/*.ts'` checks one folder.
 */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.unit.config.ts', related: false },
  mutate: ['shared/**/*.ts', 'web/state/**/*.ts', '!**/*.d.ts'],
  coverageAnalysis: 'perTest',
  // A module-level constant's mutant runs every test, most of the time for a few percent of the mutants: they are reported as ignored.
  ignoreStatic: true,
  concurrency: 2,
  reporters: ['clear-text', 'progress'],
  // Vitest reads no tsconfig, and TypeScript 7 has no JavaScript API for Stryker to rewrite one with.
  tsconfigFile: '',
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
