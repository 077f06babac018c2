import type { Rng } from '../sim/rng.ts';
import { md5Hex } from './md5.ts';
import { encodeDataReply, encodeError, encodeResult, encodeSizeReply, parseRequest } from './protocol.ts';
import { maybeSwitchPhase, newSession, rateInForce, refill, type Session } from './session.ts';

/** Every number of the offset server's policy; defaults are the course server's. */
export interface OffsetPolicyConfig {
  /** Tokens per second. */
  rate: number;
  squishedRate: number;
  bucket: number;
  /** Probability that a request which found a token is dropped. */
  loss: number;
  /** Token-less requests (since the last squish began) beyond which the client is squished. */
  squishThreshold: number;
  /** Requests that find a token while squished. */
  squishLength: number;
  /** Variable-rate mode: `initialRate` for `firstMs`, then `rates` in turn, each for `periodMs`. */
  variable: boolean;
  initialRate: number;
  firstMs: number;
  periodMs: number;
  rates: number[];
  /** `course`: phases flip lazily as the course server does; `schedule`: the clean schedule, for teaching. */
  variableModel: 'course' | 'schedule';
  /** A continuous bucket instead of the course server's whole-token arithmetic. */
  idealBucket: boolean;
}

export const DEFAULT_POLICY: OffsetPolicyConfig = {
  rate: 250,
  squishedRate: 62,
  bucket: 10,
  loss: 0.11,
  squishThreshold: 100,
  squishLength: 100,
  variable: false,
  initialRate: 250,
  firstMs: 2000,
  periodMs: 2000,
  rates: [125, 1000],
  variableModel: 'course',
  idealBucket: false,
};

/**
 * The time a perfectly paced client needs for `chunks` replies, ms: the tokens the server grants at its
 * rate, or, for the variable server, along its schedule (`initialRate` for `firstMs`, then `rates` in turn).
 */
export function boundMs(c: OffsetPolicyConfig, chunks: number): number {
  if (!c.variable) return (chunks / c.rate) * 1000;
  // A file of unknown size (a live fetch cut off before the server told it) has no bound; the walk below
  // would never end on it, nor on a schedule that is not numbers.
  if (Number.isNaN(chunks) || ![c.initialRate, c.firstMs, c.periodMs, ...c.rates].every(Number.isFinite)) return Number.NaN;
  if (chunks <= 0) return 0;
  if (chunks === Number.POSITIVE_INFINITY) return chunks;
  const first = (c.initialRate * c.firstMs) / 1000;
  // A schedule whose later phases grant nothing never finishes a file the first phase does not.
  if (first < chunks && (c.periodMs <= 0 || c.rates.every((r) => r <= 0))) return Number.POSITIVE_INFINITY;
  let left = chunks;
  let t = 0;
  for (let phase = -1; ; phase++) {
    const [rate, ms] = phase < 0 ? [c.initialRate, c.firstMs] : [c.rates[phase % c.rates.length], c.periodMs];
    const tokens = (rate * ms) / 1000;
    if (tokens >= left) return t + (left / rate) * 1000;
    left -= tokens;
    t += ms;
  }
}

/** How a server (not the model) keeps its sessions. */
export interface SessionTableOptions {
  /** Sessions kept at once; beyond it the one heard from least recently is forgotten. */
  maxSessions: number;
  /** The course server's tournament: Reset is ignored, so a key has one session for good. */
  tournament: boolean;
}

const UNBOUNDED: SessionTableOptions = { maxSessions: Infinity, tournament: false };

/** Submits of one session a leaderboard may rank, all under one id. */
export const RANKED_SUBMITS = 3;

export type Outcome = 'size' | 'served' | 'lost' | 'no-token' | 'result' | 'error';

export interface Submission {
  id: string;
  result: boolean;
  time: number;
  penalty: number;
  /**
   * Whether a leaderboard ranks it: the session was served at least the file's size in replies (each reply
   * takes a token, so no faster than an honest fetch), it is under the id of the session's first ranked
   * Submit, and it is one of the session's first RANKED_SUBMITS ranked. Without the first a Time means
   * nothing: a fresh socket that only submits gets Time 0 (the course server keys sessions by address
   * alone, so there it would be the session that fetched); without the others one fetch could put any
   * number of ids, or of records, on the board. A Submit not ranked is still answered.
   */
  ranked: boolean;
}

export interface Decision {
  /** The datagram to send back, or null for silence. */
  reply: Uint8Array | null;
  outcome: Outcome;
  /** Offset of a data request (served, lost or refused). */
  offset: number;
  squished: boolean;
  /** The client was squished (1) or released (-1) by this request; 0 otherwise. */
  squishChange: -1 | 0 | 1;
  penalty: number;
  /** What a Submit was graded (outcome 'result'). */
  submission?: Submission;
}

export type { Session };

/**
 * The offset server's policy as a state machine: (client key, datagram, time) → reply or silence.
 * It knows nothing of sockets, so the real UDP server and the simulated one run the same code. Times are
 * read as whole milliseconds, as the course server's clock gives them.
 */
export class OffsetPolicy {
  readonly md5: string;
  private readonly sessions = new Map<string, Session>();
  /** Policies asked for by key (a bridged session the operator lets choose), in force from its next start. */
  private readonly asked = new Map<string, OffsetPolicyConfig>();

  constructor(
    readonly config: OffsetPolicyConfig,
    readonly file: Uint8Array,
    private readonly rng: Rng,
    private readonly table: SessionTableOptions = UNBOUNDED,
  ) {
    this.md5 = md5Hex(file);
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  session(key: string): Readonly<Session> | undefined {
    return this.sessions.get(key);
  }

  /** The token rate in force for a session at `now`. */
  rateAt(s: Session, now: number): number {
    return rateInForce(s.config, s, Math.floor(now));
  }

  /** The policy a key's sessions start under from now on (null: the server's own again). */
  setSessionPolicy(key: string, config: OffsetPolicyConfig | null): void {
    if (config) this.asked.set(key, config);
    else this.asked.delete(key);
  }

  handle(key: string, datagram: Uint8Array, nowMs: number): Decision {
    const now = Math.floor(nowMs);
    const request = parseRequest(datagram, this.file.length);
    if (request.kind === 'error') {
      const penalty = this.sessions.get(key)?.penalty ?? 0;
      return { reply: encodeError(request.message), outcome: 'error', offset: -1, squished: false, squishChange: 0, penalty };
    }
    const restart = request.kind === 'size' && request.reset && !this.table.tournament;
    const s = this.touch(key, now, restart);
    const base = { offset: -1, squished: s.squishLeft > 0, squishChange: 0 as const, penalty: s.penalty };
    switch (request.kind) {
      case 'size':
        return { ...base, reply: encodeSizeReply(this.file.length), outcome: 'size' };
      case 'submit': {
        const submission = {
          id: request.id,
          result: request.md5 === this.md5,
          time: now - s.start,
          penalty: s.penalty,
          ranked: this.ranks(s, request.id),
        };
        return { ...base, reply: encodeResult(submission.result, submission.time, submission.penalty), outcome: 'result', submission };
      }
      case 'data':
        return this.data(s, request.offset, request.numBytes, now);
    }
  }

  /** A ranked Submit of session `s` that was not kept (its record refused): it counts toward none of its ranked Submits. */
  unrank(s: Session): void {
    if (s.rankedSubmits > 0) s.rankedSubmits--;
  }

  /** Whether the session's Submit under `id` is ranked (see Submission.ranked); counts it if so. */
  private ranks(s: Session, id: string): boolean {
    if (s.servedBytes < this.file.length || s.rankedSubmits >= RANKED_SUBMITS) return false;
    s.rankedId ??= id;
    if (s.rankedId !== id) return false;
    s.rankedSubmits++;
    return true;
  }

  /** The key's session (a new one when asked or unknown), moved to the most recently heard end. */
  private touch(key: string, now: number, restart: boolean): Session {
    let s = this.sessions.get(key);
    this.sessions.delete(key);
    if (!s || restart) s = newSession(this.asked.get(key) ?? this.config, now, this.rng.stream(`session ${key} @${now}`));
    s.lastSeen = now;
    this.sessions.set(key, s);
    if (this.sessions.size > this.table.maxSessions) this.sessions.delete(this.sessions.keys().next().value!);
    return s;
  }

  private data(s: Session, offset: number, numBytes: number, now: number): Decision {
    const c = s.config;
    refill(c, s, now);
    const decide = (reply: Uint8Array | null, outcome: Outcome, squishChange: -1 | 0 | 1 = 0): Decision => ({
      reply,
      outcome,
      offset,
      squished: s.squishLeft > 0,
      squishChange,
      penalty: s.penalty,
    });
    if (s.tokens < 1) {
      s.penalty++;
      s.runningCount++;
      if (s.squishLeft > 0 || s.runningCount <= c.squishThreshold) return decide(null, 'no-token');
      s.runningCount = 0;
      s.squishLeft = c.squishLength;
      s.squishes++;
      return decide(null, 'no-token', 1);
    }
    let change: -1 | 0 = 0;
    if (s.squishLeft === 0) maybeSwitchPhase(c, s, now);
    else if (--s.squishLeft === 0) {
      change = -1;
      // The course server leaves a squish at its base rate, whatever phase it was in.
      s.rate = c.variable ? c.initialRate : c.rate;
    }
    if (s.rng.chance(c.loss)) return decide(null, 'lost', change);
    s.tokens -= 1;
    s.replied = true;
    s.lastReplyAt = now;
    const body = this.file.subarray(offset, Math.min(offset + numBytes, this.file.length));
    s.servedBytes += body.length;
    return decide(encodeDataReply(offset, body, s.squishLeft > 0), 'served', change);
  }

  /** Forgets a key's session (a server making room for a newcomer). */
  forget(key: string): void {
    this.sessions.delete(key);
  }

  /** Forgets sessions not heard from for `idleMs`; returns how many. Sessions are kept in order heard. */
  reclaim(nowMs: number, idleMs: number): number {
    const now = Math.floor(nowMs);
    let n = 0;
    for (const [key, s] of this.sessions) {
      if (now - s.lastSeen <= idleMs) break;
      this.sessions.delete(key);
      n++;
    }
    return n;
  }
}
