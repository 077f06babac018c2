import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openJournal, type JournalStatus } from '../../server/records/journal.ts';
import { tempDir } from '../helpers/tempDir.ts';

const dir = () => tempDir('journal-');
const submit = (id: string, time: number) => ({ kind: 'submit', id, time });

describe('the records journal', () => {
  it('answers an append once its line is in the file, keeps order across a group, and reads it all back', async () => {
    const path = join(dir(), 'records.jsonl');
    const journal = openJournal(path);
    expect(await journal.append(submit('ann@red', 2810))).toBe('written');
    expect(readFileSync(path, 'utf8')).toBe('{"kind":"submit","id":"ann@red","time":2810}\n');
    const group = await Promise.all(Array.from({ length: 50 }, (_, i) => journal.append(submit(`s${i}@x`, i))));
    expect(group.every((s) => s === 'written')).toBe(true);
    await journal.close();
    const again = openJournal(path);
    expect(again.opened).toEqual({ records: 51, skipped: 0, tornTail: false });
    expect(again.records().map((r) => r.id)).toEqual(['ann@red', ...Array.from({ length: 50 }, (_, i) => `s${i}@x`)]);
    await again.close();
  });

  it('tolerates a torn last line: counts it, keeps it in the file, and starts the next record on a line of its own', async () => {
    const path = join(dir(), 'records.jsonl');
    writeFileSync(path, '{"kind":"submit","id":"a"}\nnot json\n["kind"]\n{"id":"no kind"}\n{"kind":"submit","id":"b"}\n{"kind":"sub');
    const journal = openJournal(path);
    expect(journal.opened).toEqual({ records: 2, skipped: 4, tornTail: true });
    await journal.append(submit('c', 1));
    await journal.close();
    expect(readFileSync(path, 'utf8').endsWith('{"kind":"sub\n{"kind":"submit","id":"c","time":1}\n')).toBe(true);
    const again = openJournal(path);
    expect(again.opened).toEqual({ records: 3, skipped: 4, tornTail: false });
    expect(again.records().map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });

  it('holds what the disk refuses, says so, and writes it in order once the disk takes it', async () => {
    const parent = dir();
    const path = join(parent, 'missing', 'records.jsonl');
    const seen: JournalStatus[] = [];
    const journal = openJournal(path, { retryMs: 20, onStatus: (s) => seen.push(s) });
    expect(await journal.append(submit('ann@red', 1))).toBe('held');
    expect(await journal.append(submit('bob@blue', 2))).toBe('held');
    expect([journal.backlog(), journal.lastError()?.includes('ENOENT')]).toEqual([2, true]);
    expect(journal.records().map((r) => r.id)).toEqual(['ann@red', 'bob@blue']);
    mkdirSync(join(parent, 'missing'));
    await journal.drained();
    expect([journal.backlog(), journal.lastError()]).toEqual([0, null]);
    expect(readFileSync(path, 'utf8')).toBe('{"kind":"submit","id":"ann@red","time":1}\n{"kind":"submit","id":"bob@blue","time":2}\n');
    expect(seen).toEqual([
      { backlog: 1, error: expect.stringContaining('ENOENT') },
      { backlog: 0, error: null },
    ]);
    await journal.close();
  });

  it('keeps a record as it was appended, whatever the caller changes afterwards, and refuses appends once closed', async () => {
    const path = join(dir(), 'records.jsonl');
    const journal = openJournal(path);
    const r = { kind: 'contest', code: 'line one\nline two' };
    await journal.append(r);
    r.code = 'changed';
    expect(journal.records()).toEqual([{ kind: 'contest', code: 'line one\nline two' }]);
    await journal.close();
    await expect(journal.append(submit('late', 0))).rejects.toThrow('closed');
    appendFileSync(path, '');
    expect(readFileSync(path, 'utf8').split('\n').length).toBe(2);
  });
});

/** A small file system of the test's own, where mounting is allowed (as root); null elsewhere. */
function smallDisk(kb: number): { path: string; unmount: () => void } | null {
  const path = dir();
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kb}k`, 'tmpfs', path], { stdio: 'ignore' });
  } catch {
    return null;
  }
  return { path, unmount: () => execFileSync('umount', [path]) };
}

describe('the records journal on a disk that fills', () => {
  it('cuts off what a write the disk refused left, holds the group, and writes it once space is freed', async (context) => {
    const disk = smallDisk(64);
    if (!disk) return context.skip('no file system of its own can be mounted here');
    const { path: root, unmount } = disk;
    try {
      const path = join(root, 'records.jsonl');
      const journal = openJournal(path, { retryMs: 20 });
      await journal.append(submit('first', 1));
      const size = statSync(path).size;
      writeFileSync(join(root, 'filler'), Buffer.alloc(40 * 1024));
      const big = { kind: 'contest', code: 'x'.repeat(30 * 1024) };
      expect(await journal.append(big)).toBe('held');
      expect(journal.lastError()).toContain('ENOSPC');
      expect(statSync(path).size).toBe(size);
      rmSync(join(root, 'filler'));
      await journal.drained();
      const again = openJournal(path);
      expect([again.opened, again.records()[1]]).toEqual([{ records: 2, skipped: 0, tornTail: false }, big]);
      await journal.close();
    } finally {
      unmount();
    }
  });
});

describe("the records file's permissions", () => {
  it("is made readable by the relay's user alone: it holds every student's code", async () => {
    const path = join(tempDir('pipefill-journal-mode-'), 'records.jsonl');
    const journal = openJournal(path);
    await journal.append({ kind: 'contest-submission', code: 'export default {}' });
    await journal.drained();
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});
