import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Leaderboard } from '../../server/leaderboard.ts';
import { openJournal } from '../../server/records/journal.ts';
import type { LeaderboardEntry } from '../../shared/relay/leaderboard.ts';
import { tempDir } from '../helpers/tempDir.ts';

const at = '2026-11-21T20:00:00.000Z';
const e = (id: string): LeaderboardEntry => ({ id, result: true, time: 3000, penalty: 0, at, server: 'constant' });
const FLOODER = '127.0.0.1';
const STUDENT = '127.0.0.2';
const OTHER = '127.0.0.3';
/** The ids on the board, in the order their Submits were kept. */
const idsOn = (board: Leaderboard) => [...new Set(board.all.map((x) => x.id))];

describe('the board past its ids: the address holding the most loses its least recently heard', () => {
  it('an address putting up ids pushes out only its own; under the global rule the student would go first', () => {
    const board = new Leaderboard(null, 16, 4);
    board.add(e('ann@red'), STUDENT);
    for (let i = 0; i < 6; i++) board.add(e(`fake${i}@x`), FLOODER);
    // fake3 made five ids: the flooder held 4 to the student's 1, and fake0 went; fake4 and fake5 took fake1 and fake2.
    expect(idsOn(board)).toEqual(['ann@red', 'fake3@x', 'fake4@x', 'fake5@x']);
  });

  it('ties go to the least recently heard id of the tied addresses', () => {
    const board = new Leaderboard(null, 16, 4);
    board.add(e('a1@x'), FLOODER);
    board.add(e('b1@x'), STUDENT);
    board.add(e('a2@x'), FLOODER);
    board.add(e('b2@x'), STUDENT);
    board.add(e('c1@x'), OTHER); // 2, 2 and 1 ids: a1 is the least recent of the two tied
    expect(idsOn(board)).toEqual(['b1@x', 'a2@x', 'b2@x', 'c1@x']);
    board.add(e('b1@x'), STUDENT); // heard again: b2 is now the student's least recent
    board.add(e('c2@x'), OTHER); // 1, 2 and 2 ids: of b2, c1 (and b1, just heard), b2 was heard least recently
    expect(idsOn(board).sort()).toEqual(['a2@x', 'b1@x', 'c1@x', 'c2@x']);
  });

  it('a Submit under another address’s id leaves the id theirs: it cannot be taken to be pushed out', () => {
    const board = new Leaderboard(null, 16, 3);
    board.add(e('ann@red'), STUDENT);
    board.add(e('ann@red'), FLOODER);
    for (let i = 0; i < 3; i++) board.add(e(`fake${i}@x`), FLOODER);
    // Were ann's id the flooder's, it would hold 4 ids and ann's would be its least recent.
    expect(idsOn(board)).toEqual(['ann@red', 'fake1@x', 'fake2@x']);
  });

  it('journals each Submit’s address and reads it back; Submits journaled without one count as one unknown address', async () => {
    const path = join(tempDir('pipefill-fair-'), 'records.jsonl');
    const old = (id: string) => JSON.stringify({ kind: 'submit', ...e(id) });
    writeFileSync(path, `${old('old1@x')}\n${old('old2@x')}\n${JSON.stringify({ kind: 'submit', ...e('ann@red'), address: STUDENT })}\n`);
    const first = new Leaderboard(openJournal(path), 16, 3);
    await first.add(e('fake1@x'), FLOODER); // the unknown address holds 2: old1 goes
    await first.add(e('fake2@x'), FLOODER); // the flooder holds 2: fake1 goes
    expect(idsOn(first)).toEqual(['old2@x', 'ann@red', 'fake2@x']);
    await first.close();
    expect(JSON.parse(readFileSync(path, 'utf8').split('\n')[4])).toEqual({ kind: 'submit', ...e('fake2@x'), address: FLOODER });
    const again = new Leaderboard(openJournal(path), 16, 3);
    expect(idsOn(again)).toEqual(['old2@x', 'ann@red', 'fake2@x']);
    expect(again.csv().split('\n')[0]).toBe('at,server,id,result,time,penalty');
    expect(again.history().map((x) => x.id)).toEqual(['old1@x', 'old2@x', 'ann@red', 'fake1@x', 'fake2@x']);
    expect(again.all.every((x) => !('address' in x))).toBe(true);
    await again.close();
  });
});
