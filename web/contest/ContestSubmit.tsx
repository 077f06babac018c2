import { useEffect, useRef, useState } from 'react';
import { fixed } from '../../shared/text/figures.ts';
import { StudentId } from '../live/StudentId.tsx';
import { setStudentId, useStudentId } from '../live/studentId.ts';
import { ForgetId, TokenField, TokenShown } from './ContestToken.tsx';
import { type Refused, relayRunsContest, submitToContest, useSubmission } from './contestApi.ts';
import { savedToken } from './contestTokens.ts';
import { problemBeforeSending } from '../editor/userCode.ts';
import { keepLastSubmission, lastSubmission } from './lastSubmission.ts';
import './contest.css';

/**
 * *Submit to the class contest*, beside the editor when the relay runs a contest: the editor's code under
 * the student's id, then its state and scores as the relay gives them. The id's token is shown as it comes
 * and asked for when this browser keeps none; forgetting the id signs the student out of a shared PC. The
 * id's latest submission from this tab shows again after a reload.
 */
export function ContestSubmit({ code }: { code: () => string }) {
  const id = useStudentId();
  const [on, setOn] = useState(false);
  useEffect(() => void relayRunsContest().then(setOn), []);
  // another id starts afresh: nothing of the previous id's submission or token stays on show
  return on ? <Submitting key={id ?? ''} id={id} code={code} /> : null;
}

function Submitting({ id, code }: { id: string | null; code: () => string }) {
  const [submission, setSubmission] = useState<string | null>(() => id && lastSubmission(id));
  const [refused, setRefused] = useState<Refused | null>(null);
  const [busy, setBusy] = useState(false);
  const [token, setToken] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const tokenField = useRef<HTMLInputElement>(null);
  const view = useSubmission(submission);
  useEffect(() => {
    if (refused?.token) tokenField.current?.focus();
    // "try again in N s" is true only until then: it goes as the relay would take the next submission
    if (!refused?.retryAfter) return;
    const passed = setTimeout(() => setRefused(null), refused.retryAfter * 1000);
    return () => clearTimeout(passed);
  }, [refused]);
  const submit = async () => {
    if (!id) return;
    setBusy(true);
    // the last refusal and token go as the next is asked for, so that what shows is always this one's; the
    // last submission's state stays until another is taken: a refusal leaves it the student's latest score
    setRefused(null);
    setToken(null);
    const text = code();
    const problem = await problemBeforeSending(text).catch((e: Error) => `it could not be checked: ${e.message}`);
    if (problem !== null) {
      setBusy(false);
      return setRefused({ error: `Not sent, so your turn is not used: ${problem}`, token: false });
    }
    const r = await submitToContest(id, text, typed.trim() || undefined);
    setBusy(false);
    if ('error' in r) return setRefused(r);
    setRefused(null);
    keepLastSubmission(id, r.submission);
    setSubmission(r.submission);
    setToken(r.token);
    setTyped('');
  };
  const askToken = id !== null && (refused?.token || savedToken(id) === undefined);
  return (
    <div className="contest-submit" data-testid="contest-submit">
      <button type="button" onClick={() => void submit()} disabled={!id || busy}>
        Submit to the class contest
      </button>{' '}
      {!id && <small data-hint="needs-id">needs your id first: the contest ranks you by it.</small>}
      <StudentId />
      {id && <ForgetId id={id} onForget={() => setStudentId(null)} />}
      {id && askToken && <TokenField id={id} value={typed} onChange={setTyped} field={tokenField} />}
      {refused && (
        <p role="alert">
          {refused.token ? `${refused.error.replace(/\.$/, '')}. Enter ${id}’s token in the field above (the command line keeps it in ~/.pipefill/contest-tokens.json).` : refused.error}
        </p>
      )}
      {id && token && <TokenShown id={id} token={token} />}
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
