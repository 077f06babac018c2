import type { ParamValues } from '../../../shared/controllers/types.ts';
import { ParamControl } from '../../components/ParamControl.tsx';
import { MEASUREMENT_BANDWIDTH, MEASUREMENT_DELAY, MEASUREMENT_JITTER } from '../../../shared/scenarios/measurementLink.ts';

interface Props {
  values: ParamValues;
  hidden: boolean;
  setParam(name: string, v: number | string): void;
  hide(on: boolean): void;
  drawAnother(): void;
}

/**
 * Where the hidden truth's sliders were: nothing of it to read (no knob, box, value or tooltip), a way to
 * show it, and another unknown link to measure.
 */
function HiddenTruth({ reveal, drawAnother }: { reveal(): void; drawAnother(): void }) {
  return (
    <div className="param hidden-truth" data-testid="hidden-truth">
      <span>
        {MEASUREMENT_BANDWIDTH.name} and {MEASUREMENT_DELAY.name} <output>hidden</output>
      </span>
      <div className="slider-row">
        <button type="button" onClick={reveal} data-action="reveal">
          Reveal the truth
        </button>
        <button type="button" onClick={drawAnother} data-action="draw-link">
          Another unknown link
        </button>
      </div>
      <small>Estimate them from the round trips, then reveal them and compare.</small>
    </div>
  );
}

/** The simulated link's settings, the playground's controls for each, with its truth hidden or shown. */
export function LinkControls({ values, hidden, setParam, hide, drawAnother }: Props) {
  return (
    <section className="lab-controls" aria-label="The link to measure">
      {hidden ? (
        <HiddenTruth reveal={() => hide(false)} drawAnother={drawAnother} />
      ) : (
        <>
          <ParamControl spec={MEASUREMENT_BANDWIDTH} value={values.bw} onChange={setParam} prefix="" />
          <ParamControl spec={MEASUREMENT_DELAY} value={values.delay} onChange={setParam} prefix="" />
        </>
      )}
      <ParamControl spec={MEASUREMENT_JITTER} value={values.jitter} onChange={setParam} prefix="" />
      <label>
        <input type="checkbox" checked={hidden} onChange={(e) => hide(e.target.checked)} /> hide the truth
      </label>
    </section>
  );
}
