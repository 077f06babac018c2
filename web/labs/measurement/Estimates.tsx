import { useId } from 'react';
import type { MeasurementResult } from '../../../shared/scenarios/measurement.ts';
import { fixed } from '../../charts/format.ts';
import { estimateError } from './estimateError.ts';
import type { LinkTruth } from './hiddenLink.ts';

/** The student's own estimates, as typed while the truth was hidden (empty: none given). */
export interface Guess {
  mbps: string;
  delayMs: string;
}

export const NO_GUESS: Guess = { mbps: '', delayMs: '' };

/** What each estimate is of: a bandwidth above 0, a delay of 0 or more. */
const GUESSES = {
  mbps: { what: 'your bandwidth', unit: 'Mbit/s', least: 0, atLeast: false },
  delayMs: { what: 'your one-way delay', unit: 'ms', least: 0, atLeast: true },
} as const;

/** A typed estimate: its number, none (empty), or why it is none (`key`: which). */
function checkGuess(key: keyof Guess, text: string): { value: number | null } | { error: string } {
  if (text.trim() === '') return { value: null };
  const v = Number(text);
  const g = GUESSES[key];
  if (Number.isFinite(v) && (g.atLeast ? v >= g.least : v > g.least)) return { value: v };
  return { error: `${g.what} must be a number of ${g.unit} ${g.atLeast ? 'from' : 'above'} ${g.least} (got "${text}"): it is left out of the reveal` };
}

/** A typed estimate as a number, or null when it is none or does not check. */
const guessed = (key: keyof Guess, text: string): number | null => {
  const r = checkGuess(key, text);
  return 'value' in r ? r.value : null;
};

/** One estimate, with the truth and the error beside it unless the truth is hidden; the student's own and its error under it. */
function Estimate({ name, value, truth, unit, yours }: { name: string; value: number; truth: number | null; unit: string; yours: number | null }) {
  return (
    <dd data-estimate={name}>
      {fixed(value, 3)} {unit}{' '}
      {truth !== null && (
        <small>
          truth {truth} {unit} · error {estimateError(value, truth, unit, 3)}
        </small>
      )}
      {truth !== null && yours !== null && (
        <small className="yours" data-yours={name}>
          yours {yours} {unit} · your error {estimateError(yours, truth, unit, 3)}
        </small>
      )}
    </dd>
  );
}

/** What the simulated series' fit reads as, against the truth when it is shown (null: hidden), with the student's estimates. */
export function Estimates({ result, truth, guess }: { result: MeasurementResult; truth: LinkTruth | null; guess: Guess }) {
  return (
    <dl className="estimates" data-testid="estimates">
      <dt>bandwidth (from the slope, 2·8 bits per byte per round trip)</dt>
      <Estimate name="mbps" value={result.fit.mbps} truth={truth?.mbps ?? null} unit="Mbit/s" yours={guessed('mbps', guess.mbps)} />
      <dt>size-independent one-way delay (half the intercept)</dt>
      <Estimate name="delay" value={result.fit.delayMs} truth={truth?.delayMs ?? null} unit="ms" yours={guessed('delayMs', guess.delayMs)} />
    </dl>
  );
}

/** While the link is hidden the lab's fit is too: the student reads the estimates off the samples first. */
export function YourEstimate({ guess, setGuess }: { guess: Guess; setGuess(g: Guess): void }) {
  return (
    <div className="estimates" data-testid="estimates" data-hidden>
      <p>
        <strong>Your estimate first.</strong> Each round trip is twice the one-way delay plus the message's bits at the bandwidth, both ways: read the bandwidth from the samples' slope (2 × 8 bits per
        byte ÷ slope) and the delay from half their intercept.
      </p>
      <div className="your-estimate">
        <GuessField name="mbps" testId="mbps" guess={guess} setGuess={setGuess} />
        <GuessField name="delayMs" testId="delay" guess={guess} setGuess={setGuess} />
      </div>
      <p className="hint">Then reveal the link: the lab's own least-squares fit, the link, and your error beside the fit's appear.</p>
    </div>
  );
}

/** One estimate's box, and why what it holds is no estimate, said beside it as typed. */
function GuessField({ name, testId, guess, setGuess }: { name: keyof Guess; testId: string; guess: Guess; setGuess(g: Guess): void }) {
  const problemId = useId();
  const checked = checkGuess(name, guess[name]);
  const problem = 'error' in checked ? checked.error : null;
  return (
    <span>
      <label>
        {GUESSES[name].what}{' '}
        <input
          type="text"
          inputMode="decimal"
          value={guess[name]}
          onChange={(e) => setGuess({ ...guess, [name]: e.target.value })}
          data-guess={testId}
          aria-invalid={problem !== null}
          aria-describedby={problem === null ? undefined : problemId}
        />{' '}
        {GUESSES[name].unit}
      </label>
      {problem && (
        <span className="error" role="alert" id={problemId}>
          {problem}
        </span>
      )}
    </span>
  );
}
