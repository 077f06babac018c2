import { existsSync, readFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The relay's records store: an append-only file of JSON lines, one record per line, each a JSON object
 * with a string `kind` ("submit" for a ranked Submit to an offset server; other kinds for other records).
 *
 *     const journal = openJournal('/var/lib/pipefill/records.jsonl');
 *     const where = await journal.append({ kind: 'contest-submission', id: 'ann@red', code });
 *     // 'written': on disk (written and fsynced); 'held': the disk refused it, it is kept in memory and
 *     // written, in order, as soon as the disk takes it. Either way the caller may answer its client now.
 *
 * - Durable before answered: `append` resolves 'written' only once the line is written and fsynced (and, for
 *   a file the journal created, its folder, so that the name survives a power cut too). Appends
 *   that arrive while a write is under way go together in the next one (group commit): one fsync per group.
 * - A write error (full disk, read-only file, I/O error) never throws: the record is held in memory, the
 *   promise resolves 'held', `backlog()` and `lastError()` say so, and the journal retries every `retryMs`
 *   and with each new append. Bytes a failed write left behind are cut off again (or, if the file cannot be
 *   cut, closed off with a newline) so that a retry never doubles a record or glues it to a torn one.
 * - Nothing is ever dropped or rewritten: lines that are not records (a torn last line after a crash) are
 *   skipped at open and counted in `opened`, and stay in the file.
 * - `records()` is every record read at open followed by every record appended since (written or held),
 *   in append order; it is not a copy, so do not change it.
 *
 * Single writer: one relay process per file. The file is opened for each write and closed after, so a file
 * made read-only shows up as a write error at once rather than being written through an old descriptor.
 */
export interface JournalRecord {
  kind: string;
  [field: string]: unknown;
}

export type Stored = 'written' | 'held';

export interface JournalStatus {
  /** Records appended and not yet on disk. */
  backlog: number;
  /** Why the last write failed, or null once a write succeeds. */
  error: string | null;
}

export interface JournalOptions {
  /** How often a failed write is tried again, ms. */
  retryMs?: number;
  /** Told when a write fails and when a backlog has been written (for the operator's console). */
  onStatus?: (status: JournalStatus) => void;
}

export interface Journal {
  readonly path: string;
  /** What reading the file at open found: records kept, lines skipped, and whether the last line was torn. */
  readonly opened: { records: number; skipped: number; tornTail: boolean };
  append(record: JournalRecord): Promise<Stored>;
  records(): readonly JournalRecord[];
  /**
   * Leaves `field` out of the records kept in memory (records()) that `which` picks: for a large field its
   * owner no longer needs. The file keeps it; a journal opened again reads it again.
   */
  forget(field: string, which: (r: JournalRecord) => boolean): void;
  backlog(): number;
  lastError(): string | null;
  /** Resolves once every record appended so far is on disk (never, while the disk refuses them). */
  drained(): Promise<void>;
  /** Stops retrying after one last try to write the backlog; records still held then are lost. */
  close(): Promise<void>;
}

const RETRY_MS = 1000;

interface Waiting {
  line: string;
  settle: (s: Stored) => void;
}

/** Reads the whole file: its records, its lines that are not records, its size, and whether it ends in a newline. */
export function readJournal(path: string): { records: JournalRecord[]; skipped: number; tornTail: boolean; size: number; endsClean: boolean } {
  if (!existsSync(path)) return { records: [], skipped: 0, tornTail: false, size: 0, endsClean: true };
  const bytes = readFileSync(path);
  const size = bytes.length;
  const lines = bytes.toString('utf8').split('\n');
  const last = lines.pop() ?? '';
  const records: JournalRecord[] = [];
  let skipped = 0;
  for (const line of lines) {
    const r = parseRecord(line);
    if (r) records.push(r);
    else if (line !== '') skipped++;
  }
  // A last line without its newline was being written when the writer stopped: never acknowledged.
  const tornTail = last !== '';
  return { records, skipped: skipped + (tornTail ? 1 : 0), tornTail, size, endsClean: size === 0 || bytes[size - 1] === 0x0a };
}

function parseRecord(line: string): JournalRecord | null {
  try {
    const r = JSON.parse(line) as unknown;
    return r !== null && typeof r === 'object' && !Array.isArray(r) && typeof (r as JournalRecord).kind === 'string' ? (r as JournalRecord) : null;
  } catch {
    return null;
  }
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Opens (or creates, at its first write) the journal at `path`, reading every record it holds. */
export function openJournal(path: string, options: JournalOptions = {}): Journal {
  return new FileJournal(path, options);
}

class FileJournal implements Journal {
  readonly opened: Journal['opened'];
  private readonly all: JournalRecord[];
  /** Bytes of the file known to hold whole records (or the file as found), and whether they end a line. */
  private committed: number;
  private committedEndsLine: boolean;
  /** The file may hold bytes past `committed` that a failed write left and could not cut off. */
  private leftover = false;
  /** The file is new: its name is on disk only once its folder is fsynced too (a power cut, not a crash). */
  private newFile: boolean;
  private queue: Waiting[] = [];
  private writing: Promise<void> | null = null;
  private error: string | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private readonly drainWaiters: (() => void)[] = [];

  constructor(
    readonly path: string,
    private readonly options: JournalOptions,
  ) {
    const read = readJournal(path);
    this.all = read.records;
    this.committed = read.size;
    this.committedEndsLine = read.endsClean;
    this.newFile = !existsSync(path);
    this.opened = { records: read.records.length, skipped: read.skipped, tornTail: read.tornTail };
  }

  append(record: JournalRecord): Promise<Stored> {
    if (this.closed) return Promise.reject(new Error('the records journal is closed'));
    const line = `${JSON.stringify(record)}\n`;
    this.all.push(JSON.parse(line) as JournalRecord);
    return new Promise<Stored>((settle) => {
      // A record held resolves then; a later write of it only takes it out of the backlog.
      let settled = false;
      this.queue.push({ line, settle: (s) => settled || ((settled = true), settle(s)) });
      this.kick();
    });
  }

  records = (): readonly JournalRecord[] => this.all;
  forget(field: string, which: (r: JournalRecord) => boolean): void {
    for (const r of this.all) if (field in r && which(r)) delete r[field];
  }
  backlog = (): number => this.queue.length;
  lastError = (): string | null => this.error;

  drained(): Promise<void> {
    return this.queue.length === 0 && !this.writing ? Promise.resolve() : new Promise<void>((r) => this.drainWaiters.push(r));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    while (this.writing) await this.writing;
    this.kick();
    while (this.writing) await this.writing;
  }

  private status(): void {
    this.options.onStatus?.({ backlog: this.queue.length, error: this.error });
  }

  private kick(): void {
    if (this.writing || this.queue.length === 0) return;
    this.writing = this.writeGroup().then(() => {
      this.writing = null;
      if (this.queue.length === 0) for (const r of this.drainWaiters.splice(0)) r();
      else if (this.error === null) this.kick();
      else if (!this.closed) this.retry ??= setTimeout(() => ((this.retry = null), this.kick()), this.options.retryMs ?? RETRY_MS);
    });
  }

  /** Cuts the file back to its whole records (never lengthens it); false if it cannot be cut. */
  private async cut(handle: FileHandle): Promise<boolean> {
    try {
      if ((await handle.stat()).size > this.committed) await handle.truncate(this.committed);
      return true;
    } catch {
      return false;
    }
  }

  /** One group: every waiting record in one write and one fsync. */
  private async writeGroup(): Promise<void> {
    const group = this.queue.slice();
    let handle: FileHandle | null = null;
    try {
      // the class's records hold every student's code: a file the relay makes is its operator's alone
      handle = await open(this.path, 'a', 0o600);
      if (this.leftover && (await this.cut(handle))) this.leftover = false;
      // What could not be cut off, or a torn line found at open, is closed off as a line of its own.
      const fresh = this.leftover || !this.committedEndsLine;
      const bytes = Buffer.from((fresh ? '\n' : '') + group.map((w) => w.line).join(''), 'utf8');
      await handle.writeFile(bytes);
      await handle.sync();
      if (this.newFile) await syncFolder(dirname(this.path));
      this.newFile = false;
      this.committed = (await handle.stat()).size;
      this.committedEndsLine = true;
      this.leftover = false;
      this.queue = this.queue.slice(group.length);
      const recovered = this.error !== null;
      this.error = null;
      for (const w of group) w.settle('written');
      if (recovered) this.status();
    } catch (e) {
      const first = this.error === null;
      this.error = (e as Error).message;
      // Cut off at once what the failed write left, so that the file holds only whole records meanwhile.
      this.leftover = !(handle && (await this.cut(handle)));
      for (const w of group) w.settle('held');
      if (first) this.status();
    } finally {
      await handle?.close().catch(() => {});
    }
  }
}
