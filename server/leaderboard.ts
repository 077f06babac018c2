import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { leaderboardCsv, parseLeaderboardCsv, type LeaderboardEntry } from '../shared/relay/leaderboard.ts';

/** Entries kept; the oldest go first. A class submits a few hundred times an hour. */
export const MAX_ENTRIES = 10_000;
const MAX_WATCHERS = 256;
/** A page that lets this much pile up is not reading its event stream: it is cut off. */
const MAX_WATCHER_BACKLOG = 256 * 1024;
const FLUSH_MS = 500;

/**
 * Every Submit the offset servers grade, in memory and optionally in a CSV file that survives restarts.
 * Pages watch it through server-sent events.
 */
export class Leaderboard {
  private entries: LeaderboardEntry[] = [];
  private readonly watchers = new Set<ServerResponse>();
  private pending: LeaderboardEntry[] = [];
  private appended = 0;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  /** Rows of the file that were not entries. */
  readonly rejected: number = 0;

  constructor(private readonly file: string | null) {
    if (file && existsSync(file)) {
      const { entries, rejected } = parseLeaderboardCsv(readFileSync(file, 'utf8'));
      this.entries = entries.slice(-MAX_ENTRIES);
      this.rejected = rejected;
    }
    if (file) writeFileSync(file, leaderboardCsv(this.entries));
  }

  get all(): readonly LeaderboardEntry[] {
    return this.entries;
  }

  add(e: LeaderboardEntry): void {
    this.entries.push(e);
    if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
    const line = `data: ${JSON.stringify(e)}\n\n`;
    for (const w of this.watchers) {
      if (w.writableLength > MAX_WATCHER_BACKLOG) w.destroy();
      else w.write(line);
    }
    if (this.file) this.schedule(e);
  }

  csv(): string {
    return leaderboardCsv(this.entries);
  }

  /** Streams the board to a page: everything so far as one event, then each Submit as it comes. */
  watch(res: ServerResponse): void {
    if (this.watchers.size >= MAX_WATCHERS) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('too many pages are watching the leaderboard\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write(`event: all\ndata: ${JSON.stringify(this.entries)}\n\n`);
    this.watchers.add(res);
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
    if (this.appended > MAX_ENTRIES) {
      this.appended = 0;
      writeFileSync(this.file, leaderboardCsv(this.entries));
    } else appendFileSync(this.file, rows);
  }

  close(): void {
    this.flush();
    for (const w of this.watchers) w.end();
  }
}
