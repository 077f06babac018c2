import type { Board } from '../../shared/contest/api.ts';
import { useFailureTexts } from './contestApi.ts';
import { byId } from './byId.ts';

/**
 * For the operator, why each student whose every submission failed is stuck: what their latest submission
 * said. The board is everyone's and carries no error (it can quote the submitter's code); the operator
 * reads each at the submission's own address, as its submitter does. Folded until asked for: the operator's
 * page may be the one on the projector.
 */
export function FailedWhy({ failed, revealed }: { failed: Board['failed']; revealed: boolean }) {
  const latest = [...failed].sort((a, b) => byId(a.id, b.id)).map(({ id, attempts }) => ({ id, submission: attempts[attempts.length - 1].submission }));
  const textOf = useFailureTexts(
    latest.map((l) => l.submission),
    revealed,
  );
  if (latest.length === 0) return null;
  return (
    <details className="contest-why" data-testid="contest-failed-why">
      <summary>Why each failed, by their latest submission (shown to the operator only; it can quote their code)</summary>
      <ul>
        {latest.map(({ id, submission }) => (
          <li key={id} data-id={id}>
            {id}: {textOf(submission) ?? '…'}
          </li>
        ))}
      </ul>
    </details>
  );
}
