import { csvFormat, csvParse } from 'd3-dsv';
import { competitionRanks } from './ranks.ts';

/** One Submit to an offset server, as graded, for the class leaderboard. */
export interface LeaderboardEntry {
  id: string;
  result: boolean;
  /** Milliseconds from session start to the Submit. */
  time: number;
  penalty: number;
  /** Wall-clock time of the Submit, ISO 8601. */
  at: string;
  server: 'constant' | 'variable';
}

const COLUMNS = ['at', 'server', 'id', 'result', 'time', 'penalty'] as const;

/**
 * An id a spreadsheet would run as a formula (=, +, -, @ first) is written after an apostrophe, which
 * spreadsheets show as text; reading takes it off again. An id that starts with an apostrophe gets one
 * more, so that reading gives it back whole.
 */
const FORMULA = /^[=+\-@\t\r]/;
export const defuse = (id: string) => (FORMULA.test(id) || id.startsWith("'") ? `'${id}` : id);
const restore = (cell: string) => (cell.startsWith("'") ? cell.slice(1) : cell);

export function leaderboardCsv(entries: readonly LeaderboardEntry[]): string {
  return `${csvFormat(
    entries.map((e) => ({ ...e, id: defuse(e.id), result: String(e.result) })),
    [...COLUMNS],
  )}\n`;
}

/** The kind of a ranked Submit's record in the relay's records journal (server/records/journal.ts). */
export const SUBMIT_RECORD = 'submit';

/**
 * An entry from a row of the CSV (every field text) or a record of the journal (numbers and booleans as
 * such), or null if it is not one.
 */
export function entryFrom(row: Record<string, unknown>): LeaderboardEntry | null {
  const time = Number(row.time);
  const penalty = Number(row.penalty);
  const result = row.result === true || row.result === 'true' ? true : row.result === false || row.result === 'false' ? false : null;
  const ok =
    result !== null &&
    (row.server === 'constant' || row.server === 'variable') &&
    typeof row.id === 'string' &&
    Number.isInteger(time) &&
    Number.isInteger(penalty) &&
    typeof row.at === 'string' &&
    // biome-ignore lint/style/noRestrictedGlobals: parses a timestamp the file holds; reads no clock
    !Number.isNaN(Date.parse(row.at));
  return ok ? { id: row.id as string, result, time, penalty, at: row.at as string, server: row.server as LeaderboardEntry['server'] } : null;
}

/** Reads a leaderboard CSV; rows that are not entries are counted, not kept. */
export function parseLeaderboardCsv(text: string): { entries: LeaderboardEntry[]; rejected: number } {
  const entries: LeaderboardEntry[] = [];
  let rejected = 0;
  for (const row of csvParse(text)) {
    const e = entryFrom(row);
    if (e) entries.push({ ...e, id: restore(e.id) });
    else rejected++;
  }
  return { entries, rejected };
}

/** Whether a file's text is a leaderboard CSV (as the relay kept its board before its records journal). */
export const isLeaderboardCsv = (text: string) => text.startsWith(`${COLUMNS.join(',')}\n`);

/** Negative if `a` ranks before `b`: a correct result, then a shorter time, then a smaller penalty. */
export const compareEntries = (a: LeaderboardEntry, b: LeaderboardEntry) => Number(b.result) - Number(a.result) || a.time - b.time || a.penalty - b.penalty;

/** Best first: correct results, then shortest time, then smallest penalty (ties in the order given). */
export function rankEntries(entries: readonly LeaderboardEntry[]): LeaderboardEntry[] {
  return [...entries].sort(compareEntries);
}

/** One id's Submits to one server: the best of them, how many, and when the latest came. */
export interface BestOfId {
  best: LeaderboardEntry;
  count: number;
  latestAt: string;
}

/** Each id's best Submit per server, ranked best first (ids tie-broken by who got there first). */
export function bestPerId(entries: readonly LeaderboardEntry[]): BestOfId[] {
  const groups = new Map<string, BestOfId>();
  for (const e of entries) {
    const key = `${e.server} ${e.id}`;
    const g = groups.get(key);
    if (!g) groups.set(key, { best: e, count: 1, latestAt: e.at });
    else {
      g.count++;
      if (e.at > g.latestAt) g.latestAt = e.at;
      if (compareEntries(e, g.best) < 0) g.best = e;
    }
  }
  const bests = rankEntries([...groups.values()].map((g) => g.best));
  return bests.map((b) => groups.get(`${b.server} ${b.id}`)!);
}

/**
 * Each row's rank among its own server's (a constant-rate and a variable-rate fetch are not raced against
 * each other), shared by rows whose best Submits tie: the same result, time and penalty. `rows` are best first.
 */
export function ranksByServer(rows: readonly BestOfId[]): Map<BestOfId, number> {
  const ranks = new Map<BestOfId, number>();
  for (const server of new Set(rows.map((r) => r.best.server))) {
    const own = rows.filter((r) => r.best.server === server);
    competitionRanks(own, (a, b) => compareEntries(a.best, b.best) === 0).forEach((rank, i) => ranks.set(own[i], rank));
  }
  return ranks;
}
