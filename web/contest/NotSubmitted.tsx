import type { Board } from '../../shared/contest/api.ts';
import { byId } from './byId.ts';
import { useRosterIds } from './contestApi.ts';

/** For the operator, the roster's ids with no submission yet: the board names only those that submitted. */
export function NotSubmitted({ board, operator }: { board: Board; operator: boolean }) {
  const roster = useRosterIds(operator);
  if (!operator || !roster) return null;
  const seen = new Set([...board.rows, ...board.pending, ...board.failed].map((r) => r.id));
  const missing = roster.filter((id) => !seen.has(id)).sort(byId);
  return (
    <p className="contest-why" data-testid="contest-not-submitted">
      <strong>Not submitted yet (the roster's ids, shown to the operator only):</strong> {missing.length ? missing.join(', ') : 'none: every id on the roster has submitted'}
    </p>
  );
}
