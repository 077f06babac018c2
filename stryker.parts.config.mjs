import base from './stryker.config.mjs';

/**
 * Mutation testing of the model's core parts (shared/link, sim, net, log and metrics) against their own unit
 * tests: `npm run mutate:parts`. Against every unit test, as `npm run mutate` runs them, a mutant here also
 * reruns each whole-scenario test that passes through it, several times slower than built: those folders
 * would take more than a day. A mutant that only a whole run catches counts
 * here as surviving, so the score is a floor.
 */
export default {
  ...base,
  vitest: { configFile: 'vitest.parts.config.ts', related: false },
  mutate: ['shared/link/**/*.ts', 'shared/sim/**/*.ts', 'shared/net/**/*.ts', 'shared/log/**/*.ts', 'shared/metrics/**/*.ts', '!**/*.d.ts'],
};
