import type { Board } from '../../shared/contest/api.ts';
import { useFailureTexts, useRosterIds } from './contestApi.ts';
import { byId } from './byId.ts';

/**
 * For the operator, why each student whose every submission failed is stuck: what their latest submission
 * said. The board is everyone's and carries no error (it can quote the submitter's code); the operator
 * reads each at the submission's own address, as its submitter does.
 */
export function FailedWhy({ failed }: { failed: Board['failed'] }) {
  const latest = [...failed].sort((a, b) => byId(a.id, b.id)).map(({ id, attempts }) => ({ id, submission: attempts[attempts.length - 1].submission }));
  const texts = useFailureTexts(latest.map((l) => l.submission));
  if (latest.length === 0) return null;
  return (
    <div className="contest-why" data-testid="contest-failed-why">
      <strong>Why, by each one's latest submission (shown to the operator only):</strong>
      <ul>
        {latest.map(({ id, submission }) => (
          <li key={id} data-id={id}>
            {id}: {texts.get(submission) ?? '…'}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** For the operator, the roster's ids with no submission yet: the board names only those that submitted. */
export function NotSubmitted({ board }: { board: Board }) {
  const roster = useRosterIds(true);
  if (!roster) return null;
  const seen = new Set([...board.rows, ...board.pending, ...board.failed].map((r) => r.id));
  const missing = roster.filter((id) => !seen.has(id)).sort(byId);
  return (
    <p className="contest-why" data-testid="contest-not-submitted">
      <strong>Not submitted yet (the roster's ids, shown to the operator only):</strong> {missing.length ? missing.join(', ') : 'none: every id on the roster has submitted'}
    </p>
  );
}
