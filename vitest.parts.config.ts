import { defineConfig } from 'vitest/config';

/**
 * The unit tests of the model's core parts (the link and its queues, impairments and delay lines, the
 * scheduler, the generator, packets, the event log), without the tests that run whole scenarios: what
 * `npm run mutate:parts` runs against each mutant of those parts (see stryker.parts.config.mjs).
 */
const PARTS = ['queues', 'rateLink', 'traceLink', 'linkDiscipline', 'linkDriver', 'impairments', 'network', 'scheduler', 'rng', 'wallClock', 'conservation', 'metrics', 'packet', 'eventLog'];

export default defineConfig({
  test: { include: PARTS.map((name) => `tests/unit/${name}.test.ts`), testTimeout: 120_000 },
});
