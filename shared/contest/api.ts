/**
 * The class contest's HTTP API as JSON (the relay's /api/contest/…), shared by the relay, the page and
 * the command line. A submission is scored on each contest trace exactly as `npm run sim -- --scheme FILE
 * --trace T --json` scores it; scores on held-out traces are shown once the instructor reveals them.
 */

/** A submission's numbers on one trace. */
/** What the relay answers for a trace the class contest holds out (the page tells it apart from a failure). */
export const HELD_OUT_TRACE = 'this trace is held out for the class contest: it is not served';

export interface TraceScore {
  trace: string;
  throughputMbps: number;
  delay95: number;
  power: number;
  score: number;
}

export type SubmissionStatus = 'queued' | 'running' | 'scored' | 'failed';

/** GET /api/contest/submissions/<submission>. */
export interface SubmissionView {
  status: SubmissionStatus;
  traces: TraceScore[];
  error?: string;
}

/** POST /api/contest/submissions answers 202 with this. */
export interface Accepted {
  submission: string;
  token: string;
}

/** One submission as the board shows it: its shown traces' numbers and their mean score (never its error: that is its submitter's). */
export interface Attempt {
  submission: string;
  at: string;
  status: SubmissionStatus;
  traces: TraceScore[];
  /** The mean score over the shown traces; null until scored. */
  overall: number | null;
}

/** An id's row: its best scored submission, and every attempt. */
export interface BoardRow {
  /** Its place, shared with every row of the same score (rows are in order of score, then of time). */
  rank: number;
  id: string;
  submission: string;
  at: string;
  traces: TraceScore[];
  overall: number;
  attempts: Attempt[];
}

export interface ContestTrace {
  trace: string;
  heldOut: boolean;
}

/**
 * GET /api/contest/leaderboard: the traces shown, the rows best first, and the ids with no scored
 * submission: those with one queued or running (`pending`), and those whose every submission failed.
 */
export interface Board {
  revealed: boolean;
  traces: ContestTrace[];
  rows: BoardRow[];
  pending: { id: string; attempts: Attempt[] }[];
  failed: { id: string; attempts: Attempt[] }[];
}

/** A reference point on one trace: a built-in scheme at its defaults, or the omniscient sender. */
export interface ReferencePoint {
  scheme: string;
  throughputMbps: number;
  delay95: number;
  score: number;
}

/** GET /api/contest/reference: per shown trace, the omniscient point and the built-ins (as they finish). */
export interface Reference {
  traces: { trace: string; omniscient: { throughputMbps: number; delay95: number } | null; schemes: ReferencePoint[] }[];
}

/** GET /api/contest/roster, the operator's alone: the class's ids (--contest-roster), or null without a roster. */
export interface Roster {
  ids: string[] | null;
}

/** What the event stream sends: a submission changed state, or the held-out scores were revealed. */
export type ContestEvent = { kind: 'submission'; id: string; submission: string; status: SubmissionStatus } | { kind: 'reveal' } | { kind: 'reference' };

/**
 * What a 403 refusing a submission's token adds to its sentence: none was sent for an id that has one
 * (`missing`), or it is not the id's (`wrong`). A 403 without it (an id the roster does not list, a page of
 * another origin) is no matter of the token.
 */
export type TokenProblem = 'missing' | 'wrong';

/** The largest controller module a submission may carry, bytes. */
export const MAX_CODE_BYTES = 256 * 1024;
