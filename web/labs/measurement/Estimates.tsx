import type { MeasurementResult } from '../../../shared/scenarios/measurement.ts';
import { fixed } from '../../charts/format.ts';
import { estimateError } from './estimateError.ts';
import type { LinkTruth } from './hiddenLink.ts';

/** One estimate, with the truth and the error beside it unless the truth is hidden. */
function Estimate({ name, value, truth, unit }: { name: string; value: number; truth: number | null; unit: string }) {
  return (
    <dd data-estimate={name}>
      {fixed(value, 3)} {unit}{' '}
      {truth !== null && (
        <small>
          truth {truth} {unit} · error {estimateError(value, truth, unit, 3)}
        </small>
      )}
    </dd>
  );
}

/** What the simulated series' fit reads as, against the truth when it is shown (null: hidden). */
export function Estimates({ result, truth }: { result: MeasurementResult; truth: LinkTruth | null }) {
  return (
    <dl className="estimates" data-testid="estimates">
      <dt>bandwidth (from the slope, 2·8 bits per byte per round trip)</dt>
      <Estimate name="mbps" value={result.fit.mbps} truth={truth?.mbps ?? null} unit="Mbit/s" />
      <dt>size-independent one-way delay (half the intercept)</dt>
      <Estimate name="delay" value={result.fit.delayMs} truth={truth?.delayMs ?? null} unit="ms" />
    </dl>
  );
}

/** While the link is hidden the lab's fit is too: the student reads the estimates off the samples first. */
export function YourEstimate() {
  return (
    <div className="estimates" data-testid="estimates" data-hidden>
      <p>
        <strong>Your estimate first.</strong> Each round trip is twice the one-way delay plus the message's bits at the bandwidth, both ways: read the bandwidth from the samples' slope (2 × 8 bits per
        byte ÷ slope) and the delay from half their intercept.
      </p>
      <p className="hint">Then reveal the link: the lab's own least-squares fit, the link and your error appear.</p>
    </div>
  );
}
