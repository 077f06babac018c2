import { describe, expect, it } from 'vitest';
import { Leaderboard, MAX_ID_CHARS, MAX_IDS, MAX_PER_ID } from '../../server/leaderboard.ts';
import { leaderboardCsv, parseLeaderboardCsv, rankEntries, type LeaderboardEntry } from '../../shared/relay/leaderboard.ts';

const at = '2026-11-21T20:00:00.000Z';
const e = (id: string, result: boolean, time: number, penalty: number): LeaderboardEntry => ({ id, result, time, penalty, at, server: 'constant' });

describe('leaderboard', () => {
  it('ranks correct results first, then the shortest time, then the smallest penalty', () => {
    const ranked = rankEntries([e('slow', true, 5000, 0), e('wrong', false, 100, 0), e('fast', true, 3000, 9), e('fast-clean', true, 3000, 2)]);
    expect(ranked.map((x) => x.id)).toEqual(['fast-clean', 'fast', 'slow', 'wrong']);
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
  it('keeps each id’s latest Submits, ranks no id beyond the limit, and cuts long ids', () => {
    const board = new Leaderboard(null);
    expect(board.add(e('ann@red', true, 2900, 1))).toBe(true);
    for (let i = 0; i < 3 * MAX_PER_ID; i++) board.add(e('spam@x', false, i, 0));
    expect(board.all.filter((x) => x.id === 'spam@x').map((x) => x.time)).toEqual(Array.from({ length: MAX_PER_ID }, (_, i) => 2 * MAX_PER_ID + i));
    for (let i = 0; i < MAX_IDS + 50; i++) board.add(e(`s${i}@x`, false, 1, 0));
    expect(new Set(board.all.map((x) => x.id)).size).toBe(MAX_IDS);
    expect(board.unranked).toBe(52);
    expect(board.all[0]).toEqual(e('ann@red', true, 2900, 1));
    expect(board.add(e('ann@red', true, 2800, 0))).toBe(true);
    const long = new Leaderboard(null);
    long.add(e('x'.repeat(1000), true, 1, 0));
    expect(long.all[0].id).toBe(`${'x'.repeat(MAX_ID_CHARS - 1)}…`);
  });
});
