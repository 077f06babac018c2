import { mkdirSync } from 'node:fs';
import { count } from '../../shared/text/count.ts';
import type { Leaderboard } from '../leaderboard.ts';
import type { Journal, JournalStatus, Stored } from './journal.ts';
import type { SubmitKept } from '../offsetServer.ts';
import { type Migrated, openRecords, recordsPath } from './open.ts';

export interface RelayRecords {
  path: string;
  journal: Journal;
  migrated: Migrated | null;
}

/** A write error's message without the path it names: the status API is open to every client. */
const withoutPath = (error: string | null) => error?.replace(/, (\w+) '.*'$/, ', $1') ?? null;

/** While writes fail, the operator's console is reminded of the backlog this often. */
const REMIND_MS = 10_000;

/** What the operator's console says when writes start failing, every REMIND_MS while they do, and when the backlog is written. */
function announce(path: string, journal: () => Journal | undefined) {
  let reminder: ReturnType<typeof setInterval> | null = null;
  const say = (backlog: number, error: string) =>
    console.error(`records: cannot write ${path} (${error}); ${backlog} held in memory, not acknowledged (a ranked Submit is answered ERROR, a contest submission 503), retried every second`);
  return ({ backlog, error }: JournalStatus) => {
    if (reminder) clearInterval(reminder);
    reminder = null;
    if (!error) return console.error(`records: ${path} writable again; every held record is written`);
    say(backlog, error);
    reminder = setInterval(() => {
      const j = journal();
      if (j?.lastError()) say(j.backlog(), j.lastError()!);
    }, REMIND_MS);
    reminder.unref();
  };
}

/** The relay's records journal, in the data folder (made if missing) or the leaderboard file; null if neither is given. */
export function openRelayRecords(o: { dataDir: string | null; leaderboardFile: string | null }): RelayRecords | null {
  const path = recordsPath(o);
  if (!path) return null;
  // the class's records hold every student's code: a folder the relay makes is its operator's alone
  if (o.dataDir) mkdirSync(o.dataDir, { recursive: true, mode: 0o700 });
  let opened: Journal | undefined;
  const { journal, migrated } = openRecords(path, { onStatus: announce(path, () => opened) });
  opened = journal;
  return { path, journal, migrated };
}

/** The records' line among the relay's service lines at start. */
export function recordsLine({ path, journal, migrated }: RelayRecords, board: Leaderboard): string {
  const notes = [`${count(board.history().length, 'Submit')} kept`];
  if (board.rejected) notes.push(`${count(board.rejected, 'Submit record')} unreadable, left out`);
  if (journal.opened.skipped)
    notes.push(`${count(journal.opened.skipped, 'line')} that ${journal.opened.skipped === 1 ? 'is not a record' : 'are not records'} skipped${journal.opened.tornTail ? ', the last one torn' : ''}`);
  if (migrated) notes.push(`${count(migrated.rows, 'row')} read from its CSV (copied to ${migrated.kept}${migrated.rejected ? `; ${count(migrated.rejected, 'row')} left out (not Submits)` : ''})`);
  return `records         ${path} (${notes.join('; ')})`;
}

/** The records' state for the status API (/api/relay): records not yet on disk, and why. */
export function recordsStatus(journal: Journal | null): { kept: number; backlog: number; error: string | null } | null {
  return journal && { kept: journal.records().length, backlog: journal.backlog(), error: withoutPath(journal.lastError()) };
}

/**
 * A record's fate as its answer waits for it: null once on disk, else why the disk refused it. While the
 * records refuse writes, a new one is refused at once, not appended (`append` is not called): a client
 * resending it would otherwise fill the relay's memory with copies held for the disk.
 */
export function keepRecord(journal: Journal | null, append: () => Promise<Stored> | undefined): SubmitKept {
  const trouble = recordsStatus(journal)?.error;
  if (trouble) return Promise.resolve(trouble);
  return append()?.then((s) => (s === 'written' ? null : (recordsStatus(journal)?.error ?? 'its records are closed')));
}
