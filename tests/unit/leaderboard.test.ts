import { describe, expect, it } from 'vitest';
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
});
