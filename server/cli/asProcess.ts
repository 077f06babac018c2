import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { watchCallbacks } from '../../shared/controllers/userWatch.ts';
import { type Io, isSchemeFile, PROCESS_IO, runTool, type UsageFaults } from './flags.ts';

/**
 * How long the user's controller may go without a beat before the tool counts it as hung. Longer than the
 * page's 2 s: between runs a command-line tool computes figures with no callback running, and the loop
 * guard stops a looping callback long before this.
 */
export const CLI_HANG_MS = 5000;
/** Until its first beat, the thread may take this long to start and load the controller's module. */
const START_MS = 30_000;

const BOOT = new URL('../threadBoot.mjs', import.meta.url);

type FromGuarded = { kind: 'beat'; callback: string | null } | { kind: 'code'; code: number };

/** Whether a command line loads the user's own controller (`--scheme FILE`, or a file in a list). */
function loadsUserCode(argv: readonly string[]): boolean {
  return argv.some((a, i) => {
    const value = a.startsWith('--scheme=') ? a.slice('--scheme='.length) : argv[i - 1] === '--scheme' ? a : null;
    return value?.split(',').some(isSchemeFile) === true;
  });
}

/**
 * Runs a tool as this process: its exit code, and an end at once after a failure, which may have left a
 * socket or a timer open (a proxy bound before its watch port turned out taken). A command line that
 * loads the user's own controller runs the tool in a worker thread that this thread watches (runGuarded).
 */
export async function runAsProcess(tool: string, main: (argv: string[], io: Io) => number | Promise<number>, script: string, usage: UsageFaults = {}): Promise<void> {
  const report = guardedHere();
  const argv = process.argv.slice(2);
  const code = report === null && isMainThread && loadsUserCode(argv) ? await runGuarded(tool, script, PROCESS_IO.err) : await runTool(tool, main, argv, PROCESS_IO, usage);
  report?.(code);
  process.exitCode = code;
  if (code !== 0 || report) process.exit(code);
}

/** In the thread a guarded tool runs in: beats of its user code go to the thread that waits on it. */
function guardedHere(): ((code: number) => void) | null {
  if (isMainThread || !(workerData as { guarded?: boolean } | null)?.guarded) return null;
  const post = (m: FromGuarded) => parentPort!.postMessage(m);
  watchCallbacks((callback) => post({ kind: 'beat', callback }));
  return (code) => post({ kind: 'code', code });
}

/**
 * Runs the tool at `script` in a worker thread and waits on its user code's beats. A hang the loop guard
 * cannot reach (a regular expression that backtracks for ever, a built-in call that never ends) would keep
 * the tool running for ever; here it ends the thread, is named, and the tool exits with 2. So does a
 * controller that ends the tool's thread itself (process.exit) before the tool said how it ended.
 */
function runGuarded(tool: string, script: string, err: (text: string) => void): Promise<number> {
  const worker = new Worker(BOOT, { workerData: { module: script, guarded: true }, argv: process.argv.slice(2) });
  return new Promise((resolve) => {
    let code: number | null = null;
    let last = 'its module';
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hung = () => {
      err(
        `${tool}: your controller stopped making progress in ${last} (or after it) for ${CLI_HANG_MS / 1000} s: a regular expression that backtracks for ever, or a call that never returns? A loop would have been stopped and named.`,
      );
      code = 2;
      void worker.terminate();
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(hung, CLI_HANG_MS);
    };
    timer = setTimeout(hung, START_MS);
    worker.on('message', (m: FromGuarded) => {
      if (m.kind === 'code') {
        code = m.code;
        return clearTimeout(timer);
      }
      if (m.callback !== null) last = m.callback;
      arm();
    });
    worker.on('error', (e) => err(`${tool}: ${e.message}`));
    worker.on('exit', () => {
      clearTimeout(timer);
      if (code === null) err(`${tool}: your controller ended the tool (process.exit?) before it finished`);
      resolve(code ?? 2);
    });
  });
}
