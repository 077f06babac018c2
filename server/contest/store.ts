import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Attempt, Board, BoardRow, ContestTrace, SubmissionStatus, SubmissionView, TraceScore } from '../../shared/contest/api.ts';
import { competitionRanks } from '../../shared/relay/ranks.ts';
import type { Journal, JournalRecord } from '../records/journal.ts';
import { recordsStatus } from '../records/relayRecords.ts';

/**
 * The contest's submissions and the ids' tokens, in memory and in the records journal: a submission is
 * journaled (with its code) before it is acknowledged, and so is each result, so a restart finds every
 * acknowledged submission and scores again those it had not finished.
 */

export interface Entry {
  submission: string;
  id: string;
  /**
   * The client address it came from, journaled with it: a restart keeps each address's turn at the
   * scorers (records of older relays had none: those are named by their id).
   */
  address: string;
  at: string;
  /** The controller's module while it waits to be scored; null once scored or failed (the journal keeps it on disk). */
  code: string | null;
  status: SubmissionStatus;
  /** Scores on every contest trace, public and held out, in the contest's trace order. */
  scores: TraceScore[];
  error?: string;
  /** For a failure on a held-out trace, what is shown instead of `error` until the reveal. */
  hidden?: string;
}

/** The kind of a submission's journal record (its code with it). */
const SUBMISSION = 'contest-submission';

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest();
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export type TokenCheck = 'new' | 'ok' | 'missing' | 'wrong';

export class ContestStore {
  private readonly entries = new Map<string, Entry>();
  private readonly byId = new Map<string, Entry[]>();
  private readonly tokens = new Map<string, Buffer>();
  /** Ids created from each client address, restarts included: the bound on them holds across restarts. */
  private readonly created = new Map<string, number>();

  constructor(
    readonly traces: readonly ContestTrace[],
    public revealed: boolean,
    private readonly journal: Journal | null,
  ) {}

  /** Takes back what the journal holds; returns the submissions still to be scored, oldest first. */
  replay(): Entry[] {
    for (const r of this.journal?.records() ?? []) this.apply(r);
    this.journal?.forget('code', (r) => r.kind === SUBMISSION && this.entries.get(String(r.submission))?.code === null);
    return [...this.entries.values()].filter((e) => e.status === 'queued' || e.status === 'running').map((e) => Object.assign(e, { status: 'queued' as const }));
  }

  private apply(r: JournalRecord): void {
    if (r.kind === 'contest-token' && typeof r.id === 'string' && typeof r.hash === 'string') {
      this.tokens.set(r.id, Buffer.from(r.hash, 'hex'));
      if (typeof r.address === 'string') this.countCreated(r.address);
    }
    if (r.kind === 'contest-submission') {
      const address = typeof r.address === 'string' ? r.address : `(replayed) ${String(r.id)}`;
      this.keep({ submission: String(r.submission), id: String(r.id), address, at: String(r.at), code: String(r.code), status: 'queued', scores: [] });
    }
    const e = r.kind === 'contest-result' ? this.entries.get(String(r.submission)) : undefined;
    if (e) Object.assign(e, { status: r.status, scores: r.scores ?? [], error: r.error, hidden: r.hidden, code: null });
    if (r.kind === 'contest-reveal') this.revealed = true;
  }

  private countCreated(address: string): void {
    this.created.set(address, (this.created.get(address) ?? 0) + 1);
  }

  /** How many ids were created from a client address. */
  idsCreatedFrom(address: string): number {
    return this.created.get(address) ?? 0;
  }

  private keep(e: Entry): void {
    this.entries.set(e.submission, e);
    this.byId.set(e.id, [...(this.byId.get(e.id) ?? []), e]);
  }

  /**
   * Appends to the journal: true once on disk; false while held in memory because the disk refuses it (the
   * journal retries), or when a journal closed as the relay stops takes nothing more.
   */
  private async record(r: JournalRecord): Promise<boolean> {
    if (!this.journal) return true;
    return (await this.journal.append(r).catch(() => 'closed')) === 'written';
  }

  /**
   * Why the records cannot take a submission now, or null: the last write failed, and what it held is in
   * memory till a write succeeds. (A backlog without an error is only the writes under way.)
   */
  diskTrouble(): string | null {
    const status = recordsStatus(this.journal);
    return status?.error ? `${status.backlog} records held in memory, the last write failed: ${status.error}` : null;
  }

  checkToken(id: string, token: unknown): TokenCheck {
    const known = this.tokens.get(id);
    if (!known) return 'new';
    if (typeof token !== 'string' || token === '') return 'missing';
    return timingSafeEqual(known, hashOf(token)) ? 'ok' : 'wrong';
  }

  attemptsOf(id: string): readonly Entry[] {
    return this.byId.get(id) ?? [];
  }

  /**
   * Tokens for the roster ids that have none, handed to `hand` (the file the instructor reads them from)
   * before the records hold them: a token the relay checks has always been handed out. A stop between the
   * two leaves handed tokens that do not count, and the next start hands those ids new ones.
   */
  async issue(ids: readonly string[], hand: (issued: [string, string][]) => void): Promise<[string, string][]> {
    const issued = ids.filter((id) => !this.tokens.has(id)).map((id): [string, string] => [id, randomBytes(16).toString('hex')]);
    if (issued.length === 0) return issued;
    hand(issued);
    const written = await Promise.all(issued.map(([id, token]) => this.record({ kind: 'contest-token', id, address: 'roster', hash: hashOf(token).toString('hex') })));
    if (written.includes(false)) throw new Error("cannot write the roster's tokens to the records: none of those just handed out counts");
    for (const [id, token] of issued) this.tokens.set(id, hashOf(token));
    return issued;
  }

  /**
   * Journals a submission (and a new id's token) and keeps it queued; resolves once the journal has it on
   * disk (`written`) or holds it in memory because the disk refused it (not `written`: not acknowledged).
   */
  async accept(id: string, address: string, code: string, token: string | null): Promise<{ entry: Entry; token: string; written: boolean }> {
    const fresh = token === null ? randomBytes(16).toString('hex') : null;
    const entry: Entry = { submission: randomBytes(8).toString('hex'), id, address, at: new Date().toISOString(), code, status: 'queued', scores: [] };
    if (fresh) {
      this.tokens.set(id, hashOf(fresh));
      this.countCreated(address);
    }
    this.keep(entry);
    const writes = [this.record({ kind: SUBMISSION, submission: entry.submission, id, address, at: entry.at, code })];
    if (fresh) writes.push(this.record({ kind: 'contest-token', id, address, hash: hashOf(fresh).toString('hex') }));
    const written = (await Promise.all(writes)).every(Boolean);
    return { entry, token: fresh ?? (token as string), written };
  }

  /** A submission's state changes; a final one is journaled. */
  settle(e: Entry, status: SubmissionStatus, scores: TraceScore[] = [], failure?: { error: string; hidden?: string }): void {
    Object.assign(e, { status, scores, error: failure?.error, hidden: failure?.hidden });
    if (status !== 'scored' && status !== 'failed') return;
    void this.record({ kind: 'contest-result', submission: e.submission, status, scores, ...failure });
    // a settled submission's code is not needed again: only the journal's file keeps it
    e.code = null;
    this.journal?.forget('code', (r) => r.kind === SUBMISSION && r.submission === e.submission);
  }

  reveal(): void {
    if (this.revealed) return;
    this.revealed = true;
    void this.record({ kind: 'contest-reveal', at: new Date().toISOString() });
  }

  /** The traces whose scores are shown now. */
  shown(): ContestTrace[] {
    return this.traces.filter((t) => this.revealed || !t.heldOut);
  }

  /**
   * A submission as `GET …/submissions/ID` shows it. Its error text can quote the submitter's code, so it is
   * for the address it came from (`mayRead`); anyone else, who may have the id from the public board, learns
   * only that it failed.
   */
  view(submission: string, mayRead: (address: string) => boolean): SubmissionView | undefined {
    const e = this.entries.get(submission);
    if (!e) return undefined;
    const text = e.hidden && !this.revealed ? e.hidden : e.error;
    const error = text && (mayRead(e.address) ? text : 'it failed: what it said is shown only to the address it came from');
    return { status: e.status, traces: this.shownScores(e), ...(error ? { error } : {}) };
  }

  private shownScores(e: Entry): TraceScore[] {
    const names = new Set(this.shown().map((t) => t.trace));
    return e.scores.filter((s) => names.has(s.trace));
  }

  private attempt(e: Entry): Attempt {
    const traces = this.shownScores(e);
    const overall = e.status === 'scored' && traces.length > 0 ? mean(traces.map((t) => t.score)) : null;
    return { submission: e.submission, at: e.at, status: e.status, traces, overall };
  }

  /**
   * Each id's best scored submission by its mean score over the shown traces, best first. The board is
   * everyone's: it carries no error text (a submitter reads its own at its submission's address).
   */
  board(): Board {
    const rows: Omit<BoardRow, 'rank'>[] = [];
    const pending: Board['pending'] = [];
    const failed: Board['failed'] = [];
    for (const [id, list] of this.byId) {
      const attempts = list.map((e) => this.attempt(e));
      const scored = attempts.filter((a) => a.overall !== null);
      if (scored.length === 0) {
        const waiting = attempts.some((a) => a.status === 'queued' || a.status === 'running');
        (waiting ? pending : failed).push({ id, attempts });
        continue;
      }
      const best = scored.reduce((b, a) => ((a.overall as number) > (b.overall as number) ? a : b));
      rows.push({ id, submission: best.submission, at: best.at, traces: best.traces, overall: best.overall as number, attempts });
    }
    rows.sort((a, b) => b.overall - a.overall || a.at.localeCompare(b.at));
    const ranks = competitionRanks(rows, (a, b) => a.overall === b.overall);
    return { revealed: this.revealed, traces: this.shown(), rows: rows.map((r, i) => ({ rank: ranks[i], ...r })), pending, failed };
  }
}
