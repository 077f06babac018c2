import { defineConfig } from 'vitest/config';

/**
 * Integration tests that time what they measure (pacing to the millisecond, latencies, the emulated link, the
 * relay's timed sends): they run one file at a time with nothing else of the suite beside them.
 */
const TIMED = ['liveTimed', 'link', 'offsetServer', 'differential', 'bridge'].map((name) => `tests/integration/${name}.test.ts`);

/** The command line's runs in this process: CPU-bound, with the unit tests. */
const IN_PROCESS_CLI = ['simCli', 'simMeasurementCli'].map((name) => `tests/integration/${name}.test.ts`);

/**
 * Four groups, one after the other (`sequence.groupOrder`): the CPU-bound unit tests and the in-process CLI
 * runs; the integration tests that mostly wait on sockets, timers and child processes, several files at
 * once since waiting takes no core; the timed ones alone; the browser tests against the production bundle
 * tests/globalSetup.ts builds.
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // what tests/helpers/tempDir.ts made goes once each file is done
    setupFiles: ['tests/setup/tempDirs.ts'],
    projects: [
      {
        extends: true,
        // Worker threads start faster than processes, and nothing here touches process-wide state. One worker per
        // core (Vitest's default leaves one core out, which on two cores runs these CPU-bound files one by one);
        // files that change module state (the user-scheme registry, fake timers) put it back after each test,
        // so a worker keeps the modules it loaded for the next file instead of importing them again.
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'tests/property/**/*.test.ts', ...IN_PROCESS_CLI],
          pool: 'threads',
          maxWorkers: '100%',
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'waiting',
          include: ['tests/integration/**/*.test.ts'],
          exclude: [...TIMED, ...IN_PROCESS_CLI],
          maxWorkers: 3,
          // Three files at once on a busy machine can stretch one that starts many processes past 30 s.
          testTimeout: 60_000,
          sequence: { groupOrder: 1 },
        },
      },
      { extends: true, test: { name: 'timed', include: TIMED, maxWorkers: 1, sequence: { groupOrder: 2 } } },
      {
        extends: true,
        // Two files at once: a file alone leaves a core idle while its pages load and play (203 s against 160 s
        // here; beyond two, Chromium already has both cores). A host that steals much of the CPU can stretch a
        // page's run past 30 s.
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          globalSetup: ['tests/globalSetup.ts', 'tests/chromiumSetup.ts'],
          maxWorkers: 2,
          testTimeout: 60_000,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
