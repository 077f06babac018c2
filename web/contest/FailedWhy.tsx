import type { Board } from '../../shared/contest/api.ts';
import { useFailureTexts } from './contestApi.ts';

/**
 * For the operator, why each student whose every submission failed is stuck: what their latest submission
 * said. The board is everyone's and carries no error (it can quote the submitter's code); the operator
 * reads each at the submission's own address, as its submitter does.
 */
export function FailedWhy({ failed }: { failed: Board['failed'] }) {
  const latest = [...failed].sort((a, b) => (a.id < b.id ? -1 : 1)).map(({ id, attempts }) => ({ id, submission: attempts[attempts.length - 1].submission }));
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
