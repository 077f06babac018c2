import { describe, expect, it } from 'vitest';
import type { Board, BoardRow } from '../../shared/contest/api.ts';
import { boardCsv } from '../../server/contest/csv.ts';

const row = (rank: number, id: string, overall: number): BoardRow => ({
  rank,
  id,
  submission: 'ab12',
  at: '2026-01-02T03:04:05.000Z',
  traces: [{ trace: 'Verizon-LTE-short', throughputMbps: 2.5, delay95: 120, power: 20.8, score: overall }],
  overall,
  attempts: [],
});

describe('the contest board as CSV', () => {
  it('writes an id a spreadsheet would run as a formula after an apostrophe, as the offset leaderboard does', () => {
    const board: Board = {
      revealed: false,
      traces: [{ trace: 'Verizon-LTE-short', heldOut: false }],
      rows: [row(1, '-1-1', 3), row(2, '@A1', 2), row(3, '+1', 1.5), row(4, "'quoted", 1), row(5, 'ann@red', 0.5)],
      pending: [],
      failed: [],
    };
    expect(boardCsv(board).split('\n')).toEqual([
      'rank,id,submission,at,overall score,Verizon-LTE-short Mbit/s,Verizon-LTE-short delay95 ms,Verizon-LTE-short score',
      "1,'-1-1,ab12,2026-01-02T03:04:05.000Z,3,2.5,120,3",
      "2,'@A1,ab12,2026-01-02T03:04:05.000Z,2,2.5,120,2",
      "3,'+1,ab12,2026-01-02T03:04:05.000Z,1.5,2.5,120,1.5",
      "4,''quoted,ab12,2026-01-02T03:04:05.000Z,1,2.5,120,1",
      '5,ann@red,ab12,2026-01-02T03:04:05.000Z,0.5,2.5,120,0.5',
      '',
    ]);
  });

  it('writes the rank the board gives, shared by tied rows', () => {
    const board: Board = {
      revealed: false,
      traces: [{ trace: 'Verizon-LTE-short', heldOut: false }],
      rows: [row(1, 'ann@red', 2), row(1, 'bob@red', 2), row(3, 'cat@red', 1)],
      pending: [],
      failed: [],
    };
    expect(
      boardCsv(board)
        .split('\n')
        .map((l) => l.split(',').slice(0, 2).join(',')),
    ).toEqual(['rank,id', '1,ann@red', '1,bob@red', '3,cat@red', '']);
  });
});
