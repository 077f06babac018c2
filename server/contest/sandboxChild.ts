import 'ses';
import { readFileSync, writeSync } from 'node:fs';

/**
 * The sandbox process's entry, bundled into one file the process may read and nothing else (see
 * sandbox.ts for the process's own limits). It freezes every shared intrinsic before any model code
 * loads, reads one run's input from standard input, answers one JSON line and exits at once, so that
 * nothing a controller queued (a promise job, a timer) runs after its run.
 */

lockdown({ errorTaming: 'unsafe', overrideTaming: 'severe', consoleTaming: 'unsafe' });
const { contestRun } = await import('./sandboxRun.ts');
const input = JSON.parse(readFileSync(0, 'utf8'));
writeSync(1, `${JSON.stringify(contestRun(input))}\n`);
process.exit(0);
