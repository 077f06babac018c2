import { describe, expect, it } from 'vitest';
import { Leaderboard, MAX_ID_CHARS, MAX_IDS, MAX_PER_ID } from '../../server/leaderboard.ts';
import { bestPerId, leaderboardCsv, parseLeaderboardCsv, rankEntries, ranksByServer, type LeaderboardEntry } from '../../shared/relay/leaderboard.ts';
import { competitionRanks } from '../../shared/relay/ranks.ts';
import { isStudentId, studentIdProblem } from '../../shared/relay/studentId.ts';

const at = '2026-11-21T20:00:00.000Z';
const e = (id: string, result: boolean, time: number, penalty: number): LeaderboardEntry => ({ id, result, time, penalty, at, server: 'constant' });
/** The client address every Submit of these cases comes from. */
const FROM = '203.0.113.7';

describe('leaderboard', () => {
  it('ranks correct results first, then the shortest time, then the smallest penalty', () => {
    const ranked = rankEntries([e('slow', true, 5000, 0), e('wrong', false, 100, 0), e('fast', true, 3000, 9), e('fast-clean', true, 3000, 2)]);
    expect(ranked.map((x) => x.id)).toEqual(['fast-clean', 'fast', 'slow', 'wrong']);
  });

  it('gives tied entries one rank, and the next the rank of how many came before it', () => {
    expect(competitionRanks([5, 3, 3, 3, 1, 1], (a, b) => a === b)).toEqual([1, 2, 2, 2, 5, 5]);
    expect(competitionRanks([2, 2], (a, b) => a === b)).toEqual([1, 1]);
    expect(competitionRanks([], (a, b) => a === b)).toEqual([]);
  });

  it("ranks each server's bests apart, sharing a rank only for the same result, time and penalty", () => {
    const variable = (x: LeaderboardEntry): LeaderboardEntry => ({ ...x, server: 'variable' });
    const rows = bestPerId([e('ann', true, 3000, 2), variable(e('ann', true, 9000, 0)), e('bob', true, 3000, 2), e('cat', true, 3000, 3), variable(e('dan', true, 9000, 0)), e('eve', false, 100, 0)]);
    const ranks = ranksByServer(rows);
    expect(rows.map((r) => `${r.best.server} ${r.best.id} ${ranks.get(r)}`)).toEqual(['constant ann 1', 'constant bob 1', 'constant cat 3', 'variable ann 1', 'variable dan 1', 'constant eve 4']);
  });

  it('writes CSV with quoting and reads it back; rows that are not entries are counted', () => {
    const csv = leaderboardCsv([e('ann@red, "the" team', true, 2810, 1)]);
    expect(csv).toBe(`at,server,id,result,time,penalty\n${at},constant,"ann@red, ""the"" team",true,2810,1\n`);
    const back = parseLeaderboardCsv(`${csv}${at},constant,x,maybe,1,1\n${at},elsewhere,x,true,1,1\nnot-a-date,constant,x,true,1,1\n${at},variable,y,false,1.5,0\n`);
    expect(back.entries).toEqual([e('ann@red, "the" team', true, 2810, 1)]);
    expect(back.rejected).toBe(4);
  });

  it('writes an id a spreadsheet would run as a formula as text, and reads it back as it was', () => {
    const csv = leaderboardCsv([e('=HYPERLINK("http://x/")', false, 1, 0), e('-1@team', true, 2, 0), e('ann@red', true, 3, 0)]);
    expect(
      csv
        .split('\n')
        .slice(1, 4)
        .map((l) => l.split(',')[2]),
    ).toEqual(['"\'=HYPERLINK(""http://x/"")"', "'-1@team", 'ann@red']);
    expect(parseLeaderboardCsv(csv).entries.map((x) => x.id)).toEqual(['=HYPERLINK("http://x/")', '-1@team', 'ann@red']);
  });
});

describe('the relay’s board under a flood of Submits', () => {
  it('keeps each id’s best and latest Submits, lets the id heard from least recently go (all from one address), and cuts long ids', () => {
    const board = new Leaderboard(null);
    board.add(e('ann@red', true, 2900, 1), FROM);
    for (let i = 0; i < 3 * MAX_PER_ID; i++) board.add(e('ann@red', false, i, 0), FROM); // a flood under ann's id
    const ann = board.all.filter((x) => x.id === 'ann@red');
    expect(ann.length).toBe(MAX_PER_ID);
    expect(ann[0]).toEqual(e('ann@red', true, 2900, 1)); // her best stays
    expect(ann.slice(1).map((x) => x.time)).toEqual(Array.from({ length: MAX_PER_ID - 1 }, (_, i) => 2 * MAX_PER_ID + 1 + i));
    board.add(e('bob@blue', true, 3100, 0), FROM);
    for (let i = 0; i < MAX_IDS - 2; i++) board.add(e(`s${i}@x`, false, 1, 0), FROM);
    expect(new Set(board.all.map((x) => x.id)).size).toBe(MAX_IDS);
    board.add(e('ann@red', true, 2800, 0), FROM); // ann is heard from again: now bob is the least recent
    board.add(e('new@team', true, 3000, 0), FROM);
    const ids = new Set(board.all.map((x) => x.id));
    expect([ids.size, ids.has('ann@red'), ids.has('bob@blue'), ids.has('new@team')]).toEqual([MAX_IDS, true, false, true]);
    const long = new Leaderboard(null);
    long.add(e(`${'x'.repeat(MAX_ID_CHARS - 2)}😀😀😀`, true, 1, 0), FROM);
    expect(long.all[0].id).toBe(`${'x'.repeat(MAX_ID_CHARS - 2)}😀…`);
  });

  it('takes at most --max-per-client pages from one remote address, and says why it refuses the next', () => {
    const board = new Leaderboard(null, 2);
    const page = () => {
      const res = { status: 0, body: '', writableLength: 0, writeHead: (s: number) => ((res.status = s), res), end: (t = '') => void (res.body += t), write: () => true, on: () => res };
      return res;
    };
    const pages = [page(), page(), page()];
    for (const p of pages) board.watch(p as never, '203.0.113.7', false);
    expect(pages.map((p) => p.status)).toEqual([200, 200, 503]);
    expect(pages[2].body).toBe('more than 2 pages from one address are watching the leaderboard\n');
    const other = page();
    board.watch(other as never, '203.0.113.8', false);
    expect(other.status).toBe(200);
  });
  it('gives back an id that starts with an apostrophe as it was, formula or not', () => {
    const csv = leaderboardCsv([e("'=x", true, 1, 0), e("'quoted", true, 2, 0)]);
    expect(
      csv
        .split('\n')
        .slice(1, 3)
        .map((l) => l.split(',')[2]),
    ).toEqual(["''=x", "''quoted"]);
    expect(parseLeaderboardCsv(csv).entries.map((x) => x.id)).toEqual(["'=x", "'quoted"]);
  });
});

describe('each id’s best', () => {
  it('keeps each id’s best Submit per server, how many it made and when the latest came, best first', () => {
    const later = (x: LeaderboardEntry, minute: number) => ({ ...x, at: `2026-11-21T20:0${minute}:00.000Z` });
    const rows = bestPerId([
      later(e('ann@red', false, 900, 0), 1),
      later(e('bob@blue', true, 3100, 2), 2),
      later(e('ann@red', true, 3000, 4), 3),
      later(e('ann@red', true, 3000, 1), 4),
      later({ ...e('ann@red', true, 2000, 0), server: 'variable' }, 5),
      later(e('ann@red', true, 3500, 0), 6),
    ]);
    expect(rows.map((r) => [r.best.id, r.best.server, r.best.time, r.best.penalty, r.count, r.latestAt.slice(14, 16)])).toEqual([
      ['ann@red', 'variable', 2000, 0, 1, '05'],
      ['ann@red', 'constant', 3000, 1, 4, '06'],
      ['bob@blue', 'constant', 3100, 2, 1, '02'],
    ]);
  });
});

describe('a student’s id', () => {
  it('is id@team of letters, digits and ._- within 64 characters; anything else says why', () => {
    expect(['ann@red', 'a.b-c_d@team.2', `${'a'.repeat(60)}@red`].map(isStudentId)).toEqual([true, true, true]);
    expect(['ann', '@red', 'ann@', 'a@b@c', 'ann red@x', 'ann@red\nMD5: x', `${'a'.repeat(61)}@red`].map(isStudentId)).toEqual([false, false, false, false, false, false, false]);
    expect(studentIdProblem('')).toBe('give your id as id@team, e.g. ann@red');
    expect(studentIdProblem(`${'a'.repeat(61)}@red`)).toBe('an id has at most 64 characters');
    expect(studentIdProblem('ann')).toBe('an id is id@team: letters, digits, dots, dashes and underscores on both sides of one @');
    expect(studentIdProblem('ann@red')).toBe(null);
  });
});
