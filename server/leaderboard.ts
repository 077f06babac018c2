import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { leaderboardCsv, parseLeaderboardCsv, type LeaderboardEntry } from '../shared/relay/leaderboard.ts';

/**
 * What the board keeps: the latest Submits of each id, for this many ids; an id beyond them is not
 * ranked. A class submits a few hundred times an hour under a few dozen ids. A flood of Submits then
 * churns only its own ids' rows: it can neither push the class's entries out nor grow the board.
 */
export const MAX_IDS = 500;
export const MAX_PER_ID = 20;
/** Longer ids are cut to this many characters on the board (a header may hold a kilobyte). */
export const MAX_ID_CHARS = 64;
const MAX_WATCHERS = 256;
/** One address may watch from this many pages at once, so no one address takes every slot. */
const MAX_WATCHERS_PER_ADDRESS = 8;
/** A page that lets this much pile up is not reading its event stream: it is cut off. */
const MAX_WATCHER_BACKLOG = 256 * 1024;
const FLUSH_MS = 500;

const cut = (id: string) => (id.length > MAX_ID_CHARS ? `${id.slice(0, MAX_ID_CHARS - 1)}…` : id);

/**
 * The Submits the offset servers grade, in memory and optionally in a CSV file that survives restarts.
 * Pages watch it through server-sent events.
 */
export class Leaderboard {
  private entries: LeaderboardEntry[] = [];
  private readonly perId = new Map<string, number>();
  private readonly watchers = new Map<ServerResponse, string>();
  private pending: LeaderboardEntry[] = [];
  private appended = 0;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  /** The board as the first event a page is sent, made once per change rather than once per page. */
  private allEvent: string | null = null;
  /** Rows of the file that were not entries. */
  readonly rejected: number = 0;
  /** Submits of ids beyond MAX_IDS, left off the board. */
  unranked = 0;

  constructor(private readonly file: string | null) {
    if (file && existsSync(file)) {
      const { entries, rejected } = parseLeaderboardCsv(readFileSync(file, 'utf8'));
      for (const e of entries) this.keep({ ...e, id: cut(e.id) });
      this.rejected = rejected;
    }
    if (file) writeFileSync(file, leaderboardCsv(this.entries));
  }

  get all(): readonly LeaderboardEntry[] {
    return this.entries;
  }

  /** Ranks a Submit, unless its id is one too many; returns whether it is on the board. */
  add(submitted: LeaderboardEntry): boolean {
    const e = { ...submitted, id: cut(submitted.id) };
    if (!this.keep(e)) return false;
    const line = `data: ${JSON.stringify(e)}\n\n`;
    for (const w of this.watchers.keys()) {
      if (w.writableLength > MAX_WATCHER_BACKLOG) w.destroy();
      else w.write(line);
    }
    if (this.file) this.schedule(e);
    return true;
  }

  private keep(e: LeaderboardEntry): boolean {
    const n = this.perId.get(e.id) ?? 0;
    if (n === 0 && this.perId.size >= MAX_IDS) {
      this.unranked++;
      return false;
    }
    this.entries.push(e);
    this.allEvent = null;
    if (n < MAX_PER_ID) this.perId.set(e.id, n + 1);
    else
      this.entries.splice(
        this.entries.findIndex((x) => x.id === e.id),
        1,
      );
    return true;
  }

  csv(): string {
    return leaderboardCsv(this.entries);
  }

  /** Streams the board to a page: everything so far as one event, then each Submit as it comes. */
  watch(res: ServerResponse, address: string, headOnly: boolean): void {
    const fromThere = [...this.watchers.values()].filter((a) => a === address).length;
    if (this.watchers.size >= MAX_WATCHERS || fromThere >= MAX_WATCHERS_PER_ADDRESS) {
      const why = fromThere >= MAX_WATCHERS_PER_ADDRESS ? `more than ${MAX_WATCHERS_PER_ADDRESS} pages from one address` : 'too many pages';
      res.writeHead(503, { 'content-type': 'text/plain' }).end(`${why} are watching the leaderboard\n`);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    if (headOnly) return void res.end();
    this.allEvent ??= `event: all\ndata: ${JSON.stringify(this.entries)}\n\n`;
    res.write(this.allEvent);
    this.watchers.set(res, address);
    res.on('close', () => this.watchers.delete(res));
  }

  /** Appends in batches; once the file holds many more rows than are kept, rewrites it with the kept ones. */
  private schedule(e: LeaderboardEntry): void {
    this.pending.push(e);
    this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (!this.file || this.pending.length === 0) return;
    this.appended += this.pending.length;
    const rows = leaderboardCsv(this.pending).split('\n').slice(1).join('\n');
    this.pending = [];
    if (this.appended > MAX_IDS * MAX_PER_ID) {
      this.appended = 0;
      writeFileSync(this.file, leaderboardCsv(this.entries));
    } else appendFileSync(this.file, rows);
  }

  close(): void {
    this.flush();
    for (const w of this.watchers.keys()) w.end();
  }
}
