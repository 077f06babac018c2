import { defineConfig } from 'vitest/config';

/**
 * The unit tests of the model's core parts (the link and its queues, impairments and delay lines, the
 * scheduler, the generator, packets, the event log, the metrics), without the tests that check whole
 * scenarios' figures (golden runs, the lesson, the scenarios, the user controllers' copies): what
 * `npm run mutate:parts` runs against each mutant of those parts (see stryker.parts.config.mjs).
 */
const PARTS = [
  ...['queues', 'rateLink', 'traceLink', 'linkDiscipline', 'linkDriver', 'impairments', 'network', 'conservation'],
  ...['scheduler', 'rng', 'wallClock', 'packet', 'eventLog', 'watchUrl'],
  ...['metrics', 'percentile', 'summary', 'series', 'seriesDelta', 'sessionSeries', 'csvImport', 'runSteps'],
];

export default defineConfig({
  test: { include: PARTS.map((name) => `tests/unit/${name}.test.ts`), testTimeout: 120_000 },
});
