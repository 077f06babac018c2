import { useEffect, useRef, useState } from 'react';

/** Where the operator's reveal stands: not asked, the question on screen, sent, or refused (the relay's words). */
type Step = { kind: 'idle' | 'asking' | 'sending' } | { kind: 'refused'; why: string };

/** What the relay says when it refuses the reveal: its `{"error"}` sentence, or its bare status. */
async function refusal(answer: Response): Promise<string> {
  const body = (await answer.json().catch(() => null)) as { error?: unknown } | null;
  return typeof body?.error === 'string' ? body.error : `the relay answered ${answer.status}`;
}

/**
 * The operator's reveal of the held-out scores, asked twice: the relay keeps a reveal for good, restarts
 * included, so one misclick on a projected page would end the held-out lesson for the term. Only the
 * second action posts it; the board then shows the scores through its event stream.
 */
export function RevealHeldOut() {
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const first = useRef<HTMLButtonElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  // Focus follows the question (onto Cancel, the harmless answer) and back to the button once it is withdrawn.
  useEffect(() => {
    const asking = step.kind === 'asking';
    if (asking) cancel.current?.focus();
    else if (wasAsking.current) first.current?.focus();
    wasAsking.current = asking;
  }, [step.kind]);
  const send = async () => {
    setStep({ kind: 'sending' });
    const answer = await fetch('/api/contest/reveal', { method: 'POST' }).catch(() => null);
    if (answer?.ok) return;
    setStep({ kind: 'refused', why: answer ? await refusal(answer) : 'the relay does not answer' });
  };
  if (step.kind === 'idle' || step.kind === 'refused')
    return (
      <>
        <button type="button" ref={first} onClick={() => setStep({ kind: 'asking' })}>
          Reveal the held-out scores
        </button>
        {step.kind === 'refused' && <span role="alert"> Not revealed: {step.why}.</span>}
      </>
    );
  // The question's words stand where the first button was, so a double click does not land on Reveal.
  return (
    <span className="contest-reveal" role="group" aria-label="Reveal the held-out scores" onKeyDown={(ev) => ev.key === 'Escape' && setStep({ kind: 'idle' })}>
      <strong>Reveal to everyone? This cannot be undone.</strong>{' '}
      <button type="button" onClick={() => void send()} disabled={step.kind === 'sending'}>
        {step.kind === 'sending' ? 'Revealing…' : 'Reveal'}
      </button>{' '}
      <button type="button" ref={cancel} onClick={() => setStep({ kind: 'idle' })} disabled={step.kind === 'sending'}>
        Cancel
      </button>
    </span>
  );
}
