import type { ServerResponse } from 'node:http';
import { compareEntries, entryFrom, leaderboardCsv, SUBMIT_RECORD, type LeaderboardEntry } from '../shared/relay/leaderboard.ts';
import { FeedWatchers } from './feedWatchers.ts';
import type { Journal, Stored } from './records/journal.ts';

/**
 * What the board shows: for each of this many ids, its best Submit and its latest ones. A class submits a
 * few hundred times an hour under a few dozen ids. Past the limit an id goes from the board (never from the
 * records journal, which keeps every Submit): the one heard from least recently of the client address that
 * holds the most ids, so that an address putting up ids by the hundred pushes out only its own, and Submits
 * under an id never push out its best. The offset servers rank a few Submits under one id per session that
 * was served the file (shared/offset/policy.ts), so each id takes a fetch.
 */
export const MAX_IDS = 500;
export const MAX_PER_ID = 20;
/** Longer ids are cut to this many characters on the board (a header may hold a kilobyte). */
export const MAX_ID_CHARS = 64;
const MAX_WATCHERS = 256;
/**
 * Who sent the Submits journaled before the journal kept their address. They count as one address, so that
 * once the board is full they go first, least recently heard first, as every id went before; each counted as
 * an address of its own, a flood journaled then would outweigh no one and stay.
 */
const UNKNOWN_ADDRESS = '';
/** A page that lets this much pile up is not reading its event stream: it is cut off. */
const MAX_WATCHER_BACKLOG = 256 * 1024;

/** Cut by characters, not UTF-16 units, so no half of a pair is left. */
const cut = (id: string) => {
  const chars = Array.from(id);
  return chars.length > MAX_ID_CHARS ? `${chars.slice(0, MAX_ID_CHARS - 1).join('')}…` : id;
};

/** An id on the board: the client address that put it there, and its Submits kept. */
interface BoardId {
  address: string;
  entries: LeaderboardEntry[];
}

/**
 * The Submits the offset servers rank: every one in the records journal if the relay keeps one (its
 * append answers once the Submit is on disk, with the address it came from), the board's share of them in
 * memory. Pages watch the board through server-sent events.
 */
export class Leaderboard {
  private entries: LeaderboardEntry[] = [];
  /** Each id on the board, in the order ids were last heard from (the least recent first). */
  private readonly byId = new Map<string, BoardId>();
  /** How many of the board's ids each client address put there. */
  private readonly idsHeld = new Map<string, number>();
  private readonly watchers: FeedWatchers;
  /** The board as the first event a page is sent, made once per change rather than once per page. */
  private allEvent: string | null = null;
  /** With a journal, every Submit it holds by id (the board keeps only some), so that an id's are found at once. */
  private readonly everyAttempt = new Map<string, LeaderboardEntry[]>();
  /** Submit records of the journal that were not entries. */
  readonly rejected: number = 0;
  /**
   * `maxPerAddress`: pages one address may watch from at once (the relay's --max-per-client), so that no
   * one address takes every slot; every address counts, this machine's too. `maxIds`: ids on the board.
   */
  constructor(
    private readonly journal: Journal | null,
    private readonly maxPerAddress = 16,
    private readonly maxIds = MAX_IDS,
  ) {
    this.watchers = new FeedWatchers(MAX_WATCHERS, maxPerAddress);
    for (const r of journal?.records() ?? []) {
      if (r.kind !== SUBMIT_RECORD) continue;
      const e = entryFrom(r);
      if (!e) {
        this.rejected++;
        continue;
      }
      const kept = { ...e, id: cut(e.id) };
      this.keep(kept, typeof r.address === 'string' ? r.address : UNKNOWN_ADDRESS);
      this.index(kept);
    }
  }

  get all(): readonly LeaderboardEntry[] {
    return this.entries;
  }

  /**
   * Ranks a Submit from client address `address` (for a bridged session, its page's); with a journal,
   * resolves once it is on disk (or held, if the disk refuses it): its answer waits for that. The address
   * is kept in the journal alone: the board, its feed and its CSV are everyone's to read.
   */
  add(submitted: LeaderboardEntry, address: string): Promise<Stored> | undefined {
    const e = { ...submitted, id: cut(submitted.id) };
    this.keep(e, address);
    const line = `data: ${JSON.stringify(e)}\n\n`;
    for (const w of this.watchers.pages) {
      if (w.writableLength > MAX_WATCHER_BACKLOG) w.destroy();
      else w.write(line);
    }
    if (!this.journal) return undefined;
    this.index(e);
    return this.journal.append({ kind: SUBMIT_RECORD, ...e, address });
  }

  private index(e: LeaderboardEntry): void {
    const of = this.everyAttempt.get(e.id);
    if (of) of.push(e);
    else this.everyAttempt.set(e.id, [e]);
  }

  /** Every Submit kept: the journal's whole history, or without one the board's. */
  history(): LeaderboardEntry[] {
    if (!this.journal) return this.entries;
    return this.journal
      .records()
      .filter((r) => r.kind === SUBMIT_RECORD)
      .flatMap((r) => entryFrom(r) ?? []);
  }

  /** Every Submit kept under an id (as the board shows it), oldest first. */
  attempts(id: string): LeaderboardEntry[] {
    return this.journal ? (this.everyAttempt.get(id) ?? []) : this.entries.filter((e) => e.id === id);
  }

  /** Keeps `e` under its id: the id's best and its latest Submits; past `maxIds` ids, one goes (`evict`). */
  private keep(e: LeaderboardEntry, address: string): void {
    const kept = this.byId.get(e.id) ?? this.newId(address);
    this.byId.delete(e.id);
    kept.entries.push(e);
    const dropped: LeaderboardEntry[] = [];
    if (kept.entries.length > MAX_PER_ID) {
      const best = kept.entries.reduce((b, x) => (compareEntries(x, b) <= 0 ? x : b));
      dropped.push(
        ...kept.entries.splice(
          kept.entries.findIndex((x) => x !== best),
          1,
        ),
      );
    }
    this.byId.set(e.id, kept);
    if (this.byId.size > this.maxIds) dropped.push(...this.evict());
    this.entries.push(e);
    if (dropped.length > 0) this.entries = this.entries.filter((x) => !dropped.includes(x));
    this.allEvent = null;
  }

  /**
   * A new id counts for the address that sent its first Submit for as long as it stays on the board: a
   * Submit under it from elsewhere does not make it the sender's, so no one can take another's id to push
   * it out as their own.
   */
  private newId(address: string): BoardId {
    this.idsHeld.set(address, (this.idsHeld.get(address) ?? 0) + 1);
    return { address, entries: [] };
  }

  /** Takes off the least recently heard id of the address holding the most (of tied ones, the least recently heard of all theirs); returns its Submits. */
  private evict(): LeaderboardEntry[] {
    const most = Math.max(...this.idsHeld.values());
    const [id, gone] = [...this.byId].find(([, kept]) => this.idsHeld.get(kept.address) === most)!;
    this.byId.delete(id);
    if (most > 1) this.idsHeld.set(gone.address, most - 1);
    else this.idsHeld.delete(gone.address);
    return gone.entries;
  }

  /** Every Submit kept, as CSV. */
  csv(): string {
    return leaderboardCsv(this.history());
  }

  /** Streams the board to a page: everything so far as one event, then each Submit as it comes. */
  watch(res: ServerResponse, address: string, headOnly: boolean): void {
    const refusal = this.watchers.refusal(address);
    if (refusal) {
      const why = refusal === 'address' ? `more than ${this.maxPerAddress} pages from one address` : 'too many pages';
      res.writeHead(503, { 'content-type': 'text/plain' }).end(`${why} are watching the leaderboard\n`);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    if (headOnly) return void res.end();
    this.allEvent ??= `event: all\ndata: ${JSON.stringify(this.entries)}\n\n`;
    res.write(this.allEvent);
    this.watchers.add(res, address);
  }

  /** Ends the pages' streams; the journal writes what it still holds and closes. */
  async close(): Promise<void> {
    this.watchers.endAll();
    await this.journal?.close();
  }
}
