import { pathToFileURL } from 'node:url';
import { isMainThread, workerData } from 'node:worker_threads';
import { UserCodeError } from '../../shared/controllers/userCode.ts';
import { UsageError } from './flags.ts';

/** Where a tool writes: the process's streams, or a test's buffers. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export const PROCESS_IO: Io = { out: (t) => console.log(t), err: (t) => console.error(t) };

/** A tool's main: it reads its command line and returns its exit code. */
export type ToolMain = (argv: string[], io: Io) => number | Promise<number>;

/** What else a tool counts as the command line's fault (exit 2), beside UsageError and parseArgs' errors. */
export interface UsageFaults {
  /** Other modules' errors that mean the input is at fault (a bad scenario, an unreadable trace). */
  errors?: (abstract new (
    ...a: never[]
  ) => Error)[];
  /** System error codes that mean a flag asked for the impossible (an address in use). */
  codes?: string[];
  /** More to say after the message (a flag other tools spell differently). */
  hint?(message: string): string;
}

/**
 * Runs a tool's main and returns its exit code: 2 with the message and a pointer to --help for a bad
 * command line, 1 with the message for a failure, otherwise what main returns.
 */
export async function runTool(tool: string, main: ToolMain, argv: string[], io: Io = PROCESS_IO, usage: UsageFaults = {}): Promise<number> {
  try {
    return await main(argv, io);
  } catch (e) {
    const error = e as Error & { code?: string };
    const byUser =
      error instanceof UsageError ||
      error instanceof UserCodeError ||
      usage.errors?.some((k) => error instanceof k) ||
      error.code?.startsWith('ERR_PARSE_ARGS') ||
      usage.codes?.includes(error.code ?? '');
    if (byUser) {
      io.err(`${tool}: ${error.message}${usage.hint?.(error.message) ?? ''}\nRun with --help for the options.`);
      return 2;
    }
    io.err(`${tool}: ${error.message}`);
    return 1;
  }
}

/**
 * Whether the module at `url` is the script node was started with (and not imported by a test), or the
 * one a guarded tool's thread was started to run (server/cli/asProcess.ts).
 */
export const isEntry = (url: string) => (process.argv[1] !== undefined && url === pathToFileURL(process.argv[1]).href) || (!isMainThread && (workerData as { module?: string } | null)?.module === url);

/** The signals that stop a tool run from a terminal: Ctrl-C, and a polite kill. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * The first SIGINT or SIGTERM the process gets, by name, once it comes; a second one ends the process at
 * once (exit code 130, as Ctrl-C's), so a tool stuck while closing is not left running. `off()` stops listening.
 */
export function interruption(): { stopped: Promise<NodeJS.Signals>; off(): void } {
  let heard: ((signal: NodeJS.Signals) => void) | null = null;
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    heard = resolve;
  });
  let stopping = false;
  const on = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    heard?.(signal);
  };
  for (const s of STOP_SIGNALS) process.on(s, on);
  return { stopped, off: () => STOP_SIGNALS.forEach((s) => process.off(s, on)) };
}

/** Settles at the first SIGINT or SIGTERM (see `interruption`). */
export const interrupted = (): Promise<NodeJS.Signals> => interruption().stopped;
