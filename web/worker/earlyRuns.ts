import type { RunSeries } from '../../shared/metrics/series.ts';
import type { ScenarioSpec } from '../../shared/scenarios/spec.ts';
import type { AnswerTo, RunView, Slot } from './protocol.ts';
import type { CheckResult } from './userModule.ts';

/** What a run's caller hears besides its views: the check of new code, and the preview of a first run. */
export interface RunHooks {
  onChecked?: (r: CheckResult) => void;
  onPreview?: (s: RunSeries) => void;
}

/** A run asked before the page can draw it: what it has sent so far, and where what comes next goes. */
interface EarlyRun {
  key: string;
  answer: Promise<AnswerTo<'run'>>;
  onView: (v: RunView) => void;
  onPreview: (s: RunSeries) => void;
  view?: RunView;
  preview?: RunSeries;
}

const keyOf = (spec: ScenarioSpec, preview: boolean) => `${preview}${JSON.stringify(spec)}`;

/**
 * The sides' first runs, asked as the page loads, before it can draw anything: what each sends is kept
 * until the page's own first ask for the same run (with a preview or not alike) takes it over.
 */
export class EarlyRuns {
  private readonly runs: Partial<Record<Slot, EarlyRun>> = {};

  /** Asks a side's run of `run` now; what it sends waits here for `adopt`. */
  start(slot: Slot, spec: ScenarioSpec, preview: boolean, run: (onView: (v: RunView) => void, hooks: RunHooks) => Promise<AnswerTo<'run'>>): void {
    const early: EarlyRun = {
      key: keyOf(spec, preview),
      answer: null as never,
      onView: (v) => (early.view = v),
      onPreview: (s) => (early.preview = s),
    };
    early.answer = run((v) => early.onView(v), preview ? { onPreview: (s) => early.onPreview(s) } : {});
    this.runs[slot] = early;
  }

  /**
   * The side's early run, if this asks for the same: it answers to these callbacks from now on, and what
   * it sent so far is handed to them. Null otherwise (new code is checked in a run of its own): ask anew.
   */
  adopt(slot: Slot, spec: ScenarioSpec, onView: (v: RunView) => void, hooks: RunHooks): Promise<AnswerTo<'run'>> | null {
    const early = this.runs[slot];
    delete this.runs[slot];
    if (!early || hooks.onChecked || early.key !== keyOf(spec, hooks.onPreview !== undefined)) return null;
    early.onView = onView;
    early.onPreview = hooks.onPreview ?? (() => {});
    if (early.view) onView(early.view);
    else if (early.preview) early.onPreview(early.preview);
    return early.answer;
  }
}
