import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { watchCallbacks } from '../../shared/controllers/userWatch.ts';
import { isSchemeFile } from './schemeFlags.ts';
import { PROCESS_IO, runTool, type ToolMain, type UsageFaults } from './tool.ts';

/**
 * How long the tool's thread may go without a word (its event loop has not turned, and no callback of the
 * user's controller was entered) while the controller is in use, before it counts as hung. The loop guard
 * stops a looping callback long before this.
 */
export const CLI_HANG_MS = 5000;
/** How often the tool's thread says its event loop still turns. */
const TICK_MS = 500;
/** Until its first word, the thread may take this long to start and load the tool's modules. */
const START_MS = 30_000;

const BOOT = new URL('../threadBoot.mjs', import.meta.url);

type FromGuarded = { kind: 'beat'; callback: string | null } | { kind: 'tick' } | { kind: 'quiet' } | { kind: 'code'; code: number };

/** Whether a command line loads the user's own controller (`--scheme FILE`, or a file in a list). */
export function loadsUserCode(argv: readonly string[]): boolean {
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
export async function runAsProcess(tool: string, main: ToolMain, script: string, usage: UsageFaults = {}): Promise<void> {
  const report = guardedHere();
  const argv = process.argv.slice(2);
  const code = report === null && isMainThread && loadsUserCode(argv) ? await runGuarded(tool, script, PROCESS_IO.err) : await runTool(tool, main, argv, PROCESS_IO, usage);
  report?.(code);
  process.exitCode = code;
  if (code !== 0 || report) process.exit(code);
}

const isGuarded = () => !isMainThread && Boolean((workerData as { guarded?: boolean } | null)?.guarded);

/**
 * In the thread a guarded tool runs in: beats of its user code, and ticks of its event loop (a fetch waits
 * on sockets between callbacks), go to the thread that waits on it.
 */
function guardedHere(): ((code: number) => void) | null {
  if (!isGuarded()) return null;
  const post = (m: FromGuarded) => parentPort!.postMessage(m);
  watchCallbacks((callback) => post({ kind: 'beat', callback }));
  setInterval(() => post({ kind: 'tick' }), TICK_MS).unref();
  return (code) => post({ kind: 'code', code });
}

/**
 * Says that the user's controller has done its part (a tool then writes its files, which may take long
 * with no callback): from here on the thread is not watched for hangs.
 */
export function userCodeDone(): void {
  if (!isGuarded()) return;
  watchCallbacks(null);
  parentPort!.postMessage({ kind: 'quiet' } satisfies FromGuarded);
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
    let failed = false;
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
      if (m.kind === 'code' || m.kind === 'quiet') {
        if (m.kind === 'code') code = m.code;
        return clearTimeout(timer);
      }
      if (m.kind === 'beat' && m.callback !== null) last = m.callback;
      arm();
    });
    worker.on('error', (e) => {
      failed = true;
      err(`${tool}: ${e.message}`);
    });
    worker.on('exit', () => {
      clearTimeout(timer);
      if (code === null && !failed) err(`${tool}: your controller ended the tool (process.exit?) before it finished`);
      resolve(code ?? (failed ? 1 : 2));
    });
  });
}
