import { csvFormatRows } from 'd3-dsv';
import type { Board } from '../../shared/contest/api.ts';
import { defuse } from '../../shared/relay/leaderboard.ts';

/**
 * The board as CSV: one row per id (its best submission) with its rank, its numbers per shown trace and its
 * mean score, then the ids with no score, by their latest submission, with no rank: those waiting for one
 * and those whose every submission failed, so that an instructor grading from the file misses no one who
 * submitted. The last column says which.
 * An id a spreadsheet would run as a formula is written as the offset leaderboard's CSV writes it.
 */
export function boardCsv(board: Board): string {
  const head = ['rank', 'id', 'submission', 'at', 'overall score', ...board.traces.flatMap((t) => [`${t.trace} Mbit/s`, `${t.trace} delay95 ms`, `${t.trace} score`]), 'state'];
  const rows = board.rows.map((r) => {
    const byTrace = new Map(r.traces.map((t) => [t.trace, t]));
    const cells = board.traces.flatMap((t) => {
      const s = byTrace.get(t.trace);
      return s ? [String(s.throughputMbps), String(s.delay95), String(s.score)] : ['', '', ''];
    });
    return [String(r.rank), defuse(r.id), r.submission, r.at, String(r.overall), ...cells, 'ranked'];
  });
  const unscored = (list: Board['pending'], state: string) =>
    list.map(({ id, attempts }) => {
      const latest = attempts[attempts.length - 1];
      return ['', defuse(id), latest.submission, latest.at, '', ...board.traces.flatMap(() => ['', '', '']), state];
    });
  return `${csvFormatRows([head, ...rows, ...unscored(board.pending, 'waiting for a score'), ...unscored(board.failed, 'every submission failed')])}\n`;
}
