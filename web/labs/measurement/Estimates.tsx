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

/** A typed estimate as a number, or null when it is none. */
const guessed = (text: string): number | null => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : null);

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
      <Estimate name="mbps" value={result.fit.mbps} truth={truth?.mbps ?? null} unit="Mbit/s" yours={guessed(guess.mbps)} />
      <dt>size-independent one-way delay (half the intercept)</dt>
      <Estimate name="delay" value={result.fit.delayMs} truth={truth?.delayMs ?? null} unit="ms" yours={guessed(guess.delayMs)} />
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
        <label>
          your bandwidth <input type="text" inputMode="decimal" value={guess.mbps} onChange={(e) => setGuess({ ...guess, mbps: e.target.value })} data-guess="mbps" /> Mbit/s
        </label>
        <label>
          your one-way delay <input type="text" inputMode="decimal" value={guess.delayMs} onChange={(e) => setGuess({ ...guess, delayMs: e.target.value })} data-guess="delay" /> ms
        </label>
      </div>
      <p className="hint">Then reveal the link: the lab's own least-squares fit, the link, and your error beside the fit's appear.</p>
    </div>
  );
}
