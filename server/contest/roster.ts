import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { studentIdProblem } from '../../shared/relay/studentId.ts';
import { UsageError } from '../cli/flags.ts';
import type { ContestStore } from './store.ts';

/**
 * A class roster (`--contest-roster FILE`): only its ids may submit, and each id's token is issued by the
 * relay, not taken by whoever submits under it first, so no student can claim a classmate's id. The
 * tokens issued are appended to FILE.tokens.csv (the instructor's alone) to hand out; an id that has a token
 * already (a restart) keeps it.
 */

/** The roster file's ids, one a line (blank lines and `#` comments skipped), each checked. */
export function readRoster(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--contest-roster: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const ids: string[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/#.*/, '').trim();
    if (line === '') return;
    const problem = studentIdProblem(line);
    if (problem) throw new UsageError(`--contest-roster: line ${i + 1} of ${path}, ${JSON.stringify(line.slice(0, 80))}: ${problem}`);
    if (!ids.includes(line)) ids.push(line);
  });
  if (ids.length === 0) throw new UsageError(`--contest-roster: ${path} names no id`);
  return ids;
}

/** Appends the tokens to `file` (its user's alone), on disk before the relay records them. */
function handOut(file: string, issued: [string, string][]): void {
  let fd: number | null = null;
  try {
    fd = openSync(file, 'a', 0o600);
    writeSync(fd, issued.map(([id, token]) => `${id},${token}\n`).join(''));
    fsyncSync(fd);
  } catch (e) {
    throw new Error(`--contest-roster: cannot write ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): no token is issued`);
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Issues a token to every roster id that has none, handed out (FILE.tokens.csv) before it counts; returns the line to print. */
export async function issueRosterTokens(path: string, ids: readonly string[], store: ContestStore): Promise<string> {
  const file = `${path}.tokens.csv`;
  const issued = await store.issue(ids, (tokens) => handOut(file, tokens));
  return `contest         roster ${path}: ${ids.length} ids; ${issued.length} tokens issued now${issued.length > 0 ? `, appended to ${file}: hand each student theirs` : ''}`;
}
