import { describe, expect, it } from 'vitest';
import type { Board } from '../../../shared/contest/api.ts';
import { byId } from '../../../web/contest/byId.ts';
import { standing } from '../../../web/contest/ContestView.tsx';

/** A board of `ranked` rows, `waiting` ids waiting and `failed` ids that only failed (only their counts matter here). */
const board = (ranked: number, waiting: number, failed: number) =>
  ({ revealed: false, traces: [], rows: Array(ranked).fill({}), pending: Array(waiting).fill({}), failed: Array(failed).fill({}) }) as unknown as Board;

describe('the contest view’s head', () => {
  it('counts students in words, one as one', () => {
    expect(standing(board(1, 0, 0))).toBe('1 student ranked');
    expect(standing(board(0, 0, 0))).toBe('0 students ranked');
    expect(standing(board(2, 3, 1))).toBe('2 students ranked, 3 waiting for a score, 1 student whose every submission failed');
  });

  it('orders ids as a class list reads: the numbers in them by value', () => {
    expect(['s10', 's2', 's19', 's1', 's9'].sort(byId)).toEqual(['s1', 's2', 's9', 's10', 's19']);
    expect(['bob@red', 'ann@red10', 'ann@red2', 'ann@blue'].sort(byId)).toEqual(['ann@blue', 'ann@red2', 'ann@red10', 'bob@red']);
  });
});
