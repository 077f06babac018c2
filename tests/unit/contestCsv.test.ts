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
      'rank,id,submission,at,overall score,Verizon-LTE-short Mbit/s,Verizon-LTE-short delay95 ms,Verizon-LTE-short score,state',
      "1,'-1-1,ab12,2026-01-02T03:04:05.000Z,3,2.5,120,3,ranked",
      "2,'@A1,ab12,2026-01-02T03:04:05.000Z,2,2.5,120,2,ranked",
      "3,'+1,ab12,2026-01-02T03:04:05.000Z,1.5,2.5,120,1.5,ranked",
      "4,''quoted,ab12,2026-01-02T03:04:05.000Z,1,2.5,120,1,ranked",
      '5,ann@red,ab12,2026-01-02T03:04:05.000Z,0.5,2.5,120,0.5,ranked',
      '',
    ]);
  });

  it('lists the ids with no score after the ranked ones, by their latest submission, saying why they have none', () => {
    const attempt = (submission: string, at: string, status: 'failed' | 'queued') => ({ submission, at, status, traces: [], overall: null });
    const board: Board = {
      revealed: false,
      traces: [{ trace: 'Verizon-LTE-short', heldOut: false }],
      rows: [row(1, 'ann@red', 2)],
      pending: [{ id: 'hal@red', attempts: [attempt('c3', '2026-01-02T05:00:00.000Z', 'queued')] }],
      failed: [{ id: '=fay', attempts: [attempt('d4', '2026-01-02T04:00:00.000Z', 'failed'), attempt('e5', '2026-01-02T04:30:00.000Z', 'failed')] }],
    };
    expect(boardCsv(board).split('\n').slice(1)).toEqual([
      'ann@red,ab12,2026-01-02T03:04:05.000Z,2,2.5,120,2,ranked'.replace(/^/, '1,'),
      ',hal@red,c3,2026-01-02T05:00:00.000Z,,,,,waiting for a score',
      ",'=fay,e5,2026-01-02T04:30:00.000Z,,,,,every submission failed",
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
