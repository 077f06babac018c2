import { closeSync, copyFileSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isLeaderboardCsv, parseLeaderboardCsv, SUBMIT_RECORD } from '../../shared/relay/leaderboard.ts';
import { type Journal, type JournalOptions, openJournal } from './journal.ts';

/** The records file in a data folder (`--data DIR`). */
export const RECORDS_FILE = 'records.jsonl';

/** Where the relay keeps its records: the data folder's records file, or the leaderboard file given. */
export function recordsPath(o: { dataDir: string | null; leaderboardFile: string | null }): string | null {
  return o.dataDir ? join(o.dataDir, RECORDS_FILE) : o.leaderboardFile;
}

export interface Migrated {
  /** Where the CSV was copied before it was replaced. */
  kept: string;
  rows: number;
  rejected: number;
}

const fsyncPath = (path: string) => {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
};

/**
 * A leaderboard CSV the relay kept before its journal becomes a journal of the same Submits, in the same
 * order. The CSV is first copied beside it (FILE.before-records.csv), then the journal is written to a
 * temporary file, fsynced and renamed over FILE: a crash at any step leaves either the CSV, read again
 * at the next start, or the whole journal.
 */
export function migrateCsv(path: string): Migrated | null {
  if (!existsSync(path)) return null;
  const text = readFileSync(path, 'utf8');
  if (!isLeaderboardCsv(text)) return null;
  const { entries, rejected } = parseLeaderboardCsv(text);
  const kept = `${path}.before-records.csv`;
  copyFileSync(path, kept);
  fsyncPath(kept);
  const temporary = `${path}.migrating`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeFileSync(fd, entries.map((e) => `${JSON.stringify({ kind: SUBMIT_RECORD, ...e })}\n`).join(''));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
  fsyncPath(dirname(path));
  return { kept, rows: entries.length, rejected };
}

/** The relay's journal at `path`, a CSV there migrated first. */
export function openRecords(path: string, options: JournalOptions = {}): { journal: Journal; migrated: Migrated | null } {
  const migrated = migrateCsv(path);
  return { journal: openJournal(path, options), migrated };
}
