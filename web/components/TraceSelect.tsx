import { BUNDLED_TRACES } from '../../shared/scenarios/presets.ts';
import { useHeldOutTraces } from '../app/heldOutTraces.ts';

/** What a held-out trace's entry adds to its title: why it cannot be chosen. */
const HELD_OUT_MARK = ' — held out for the class contest';

interface Props {
  trace: string;
  /** The traces uploaded this session, by name. */
  uploaded: readonly string[];
  /** Whether a constant rate is offered: the playground's link has one, the contest lab sweeps traces alone. */
  rate: boolean;
  choose(trace: string): void;
}

/**
 * The link's trace: the bundled ones, this session's uploads, or a constant rate where offered. The traces
 * the page's relay holds out for its class contest are listed, marked and disabled: the class sees they
 * exist, and the page never asks the relay for a file it refuses.
 */
export function TraceSelect({ trace, uploaded, rate, choose }: Props) {
  const heldOut = useHeldOutTraces();
  return (
    <label className="param">
      trace
      <select value={trace} onChange={(ev) => choose(ev.target.value)} data-param="trace">
        {BUNDLED_TRACES.map((t) => {
          const withheld = heldOut.includes(t.name);
          return (
            <option key={t.name} value={t.name} disabled={withheld}>
              {withheld ? `${t.title}${HELD_OUT_MARK}` : t.title}
            </option>
          );
        })}
        {uploaded.map((n) => (
          <option key={n} value={`upload:${n}`}>
            uploaded: {n}
          </option>
        ))}
        {rate && <option value="rate">constant rate (set the bandwidth)</option>}
      </select>
    </label>
  );
}
