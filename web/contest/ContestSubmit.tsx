import { useEffect, useState } from 'react';
import { fixed } from '../../shared/text/figures.ts';
import { StudentId } from '../live/StudentId.tsx';
import { useStudentId } from '../live/studentId.ts';
import { relayRunsContest, submitToContest, useSubmission } from './contestApi.ts';

/**
 * *Submit to the class contest*, beside the editor when the relay runs a contest: the editor's code under
 * the student's id, then its state and scores as the relay gives them.
 */
export function ContestSubmit({ code }: { code: () => string }) {
  const id = useStudentId();
  const [on, setOn] = useState(false);
  const [submission, setSubmission] = useState<string | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const view = useSubmission(submission);
  useEffect(() => void relayRunsContest().then(setOn), []);
  if (!on) return null;
  const submit = async () => {
    if (!id) return;
    setBusy(true);
    const r = await submitToContest(id, code());
    setBusy(false);
    setRefused('error' in r ? r.error : null);
    setSubmission('submission' in r ? r.submission : null);
  };
  return (
    <div className="contest-submit" data-testid="contest-submit">
      <button type="button" onClick={() => void submit()} disabled={!id || busy}>
        Submit to the class contest
      </button>{' '}
      <StudentId />
      {!id && <small> The contest ranks you by your id: give it first.</small>}
      {refused && <p role="alert">{refused}</p>}
      {view && (
        <p role="status" data-status={view.status}>
          {view.status === 'failed' ? view.error : view.status === 'scored' ? 'Scored: ' : `Your submission is ${view.status}…`}
          {view.status === 'scored' && view.traces.map((t) => `${t.trace} ${fixed(t.throughputMbps)} Mbit/s, ${fixed(t.delay95, 0)} ms, score ${fixed(t.score, 3)}`).join('; ')}{' '}
          <a href="?view=contest">the class’s plane</a>
        </p>
      )}
    </div>
  );
}
