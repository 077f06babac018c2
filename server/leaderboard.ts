import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { leaderboardCsv, parseLeaderboardCsv, rankEntries, type LeaderboardEntry } from '../shared/relay/leaderboard.ts';

/**
 * What the board keeps: for each of this many ids, its best Submit and its latest ones. A class submits a
 * few hundred times an hour under a few dozen ids. Past the limit the id heard from least recently goes,
 * and Submits under an id never push out its best; the offset servers rank only a few Submits per session
 * that was served the file (shared/offset/policy.ts), so filling the board takes as many fetches.
 */
export const MAX_IDS = 500;
export const MAX_PER_ID = 20;
/** Longer ids are cut to this many characters on the board (a header may hold a kilobyte). */
export const MAX_ID_CHARS = 64;
const MAX_WATCHERS = 256;
/** A page that lets this much pile up is not reading its event stream: it is cut off. */
const MAX_WATCHER_BACKLOG = 256 * 1024;
const FLUSH_MS = 500;

/** Cut by characters, not UTF-16 units, so no half of a pair is left. */
const cut = (id: string) => {
  const chars = Array.from(id);
  return chars.length > MAX_ID_CHARS ? `${chars.slice(0, MAX_ID_CHARS - 1).join('')}…` : id;
};
const better = (a: LeaderboardEntry, b: LeaderboardEntry) => rankEntries([a, b])[0] === a;

/**
 * The Submits the offset servers grade, in memory and optionally in a CSV file that survives restarts.
 * Pages watch it through server-sent events.
 */
export class Leaderboard {
  private entries: LeaderboardEntry[] = [];
  /** Each id's Submits kept, in the order its ids were last heard from (the least recent first). */
  private readonly byId = new Map<string, LeaderboardEntry[]>();
  private readonly watchers = new Map<ServerResponse, string>();
  private pending: LeaderboardEntry[] = [];
  private appended = 0;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  /** The board as the first event a page is sent, made once per change rather than once per page. */
  private allEvent: string | null = null;
  /** Rows of the file that were not entries. */
  readonly rejected: number = 0;
  /**
   * `maxPerAddress`: pages one address may watch from at once (the relay's --max-per-client), so that no
   * one address takes every slot; every address counts, this machine's too.
   */
  constructor(
    private readonly file: string | null,
    private readonly maxPerAddress = 16,
  ) {
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

  /** Ranks a Submit. */
  add(submitted: LeaderboardEntry): void {
    const e = { ...submitted, id: cut(submitted.id) };
    this.keep(e);
    const line = `data: ${JSON.stringify(e)}\n\n`;
    for (const w of this.watchers.keys()) {
      if (w.writableLength > MAX_WATCHER_BACKLOG) w.destroy();
      else w.write(line);
    }
    if (this.file) this.schedule(e);
  }

  /** Keeps `e` under its id: the id's best and its latest Submits; the least recently heard id goes past MAX_IDS. */
  private keep(e: LeaderboardEntry): void {
    const kept = this.byId.get(e.id) ?? [];
    this.byId.delete(e.id);
    kept.push(e);
    const dropped: LeaderboardEntry[] = [];
    if (kept.length > MAX_PER_ID) {
      const best = kept.reduce((b, x) => (better(x, b) ? x : b));
      dropped.push(
        ...kept.splice(
          kept.findIndex((x) => x !== best),
          1,
        ),
      );
    }
    this.byId.set(e.id, kept);
    if (this.byId.size > MAX_IDS) {
      const [id, gone] = this.byId.entries().next().value!;
      this.byId.delete(id);
      dropped.push(...gone);
    }
    this.entries.push(e);
    if (dropped.length > 0) this.entries = this.entries.filter((x) => !dropped.includes(x));
    this.allEvent = null;
  }

  csv(): string {
    return leaderboardCsv(this.entries);
  }

  /** Streams the board to a page: everything so far as one event, then each Submit as it comes. */
  watch(res: ServerResponse, address: string, headOnly: boolean): void {
    const fromThere = [...this.watchers.values()].filter((a) => a === address).length;
    if (this.watchers.size >= MAX_WATCHERS || fromThere >= this.maxPerAddress) {
      const why = fromThere >= this.maxPerAddress ? `more than ${this.maxPerAddress} pages from one address` : 'too many pages';
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
