/** What the relay sends a sandbox process (one run) and what it answers, as JSON lines. */

export interface RunInput {
  /** The controller module's text, or null for a built-in scheme (the reference points). */
  code: string | null;
  /** The built-in scheme when `code` is null. */
  scheme: string;
  /** The contest trace: a bundled name or a file's path, as `npm run sim -- --trace` takes it. */
  trace: string;
  /** Link settings over the contest's own (its delay, its queue), as the sim's link flags give them. */
  link: Record<string, number | string>;
  /** The text of every trace file the run reads, by the name the model asks for. */
  files: Record<string, string>;
}

export interface Omniscient {
  throughputMbps: number;
  delay95: number;
}

/** What stopped a run: what a failure on a held-out trace may say before the reveal (its text may not). */
export type FailureKind = 'exception' | 'time' | 'cpu' | 'memory' | 'sandbox';

export type RunOutput = { ok: true; throughputMbps: number; delay95: number; power: number; score: number; omniscient: Omniscient | null } | { ok: false; kind: FailureKind; error: string };
