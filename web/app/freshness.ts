import { findScheme } from '../../shared/controllers/registry.ts';
import type { Experiment } from '../state/experiment.ts';
import type { RunView } from '../worker/protocol.ts';
import type { Runs, Slot } from './useRuns.ts';
import { pageSchemes } from '../editor/userCode.ts';
import { specFor } from '../state/spec.ts';

/** Which scheme a run was made with, read from the run itself (an imported CSV names its own). */
export function schemeOfView(view: RunView): string | null {
  const spec = view.spec;
  if (!spec) return null;
  return 'live' in spec ? spec.live.scheme : (spec.flows[0]?.scheme ?? null);
}

/** Whether a run was made in the offset exercise (live runs always are). */
const isOffsetRun = (view: RunView) => view.source === 'live' || Boolean(view.spec && 'flows' in view.spec && view.spec.offset);

/**
 * The runs the page may show for the current scenario: a run of the other scenario (left on the screen
 * when the run that should replace it failed, e.g. with the relay gone) is not shown under the new one's
 * headings and cards. Imported runs show whatever they are.
 */
export function viewsFor<V extends RunView>(views: Partial<Record<'a' | 'b', V>>, e: Experiment): Partial<Record<'a' | 'b', V>> {
  const fits = (v: V | undefined) => v && (v.source === 'imported' || isOffsetRun(v) === (e.scenario === 'offset'));
  return { a: fits(views.a) ? views.a : undefined, b: fits(views.b) ? views.b : undefined };
}

/** A scheme id as a person reads it. */
export const schemeTitle = (id: string) => findScheme(id, pageSchemes())?.title ?? id;

/**
 * Why a side's shown run is not the run the current settings describe, or null when it is. A run still
 * being replaced ("updating") is current enough: its successor is under way. Imported runs stand for
 * themselves and are never stale; a failed upload leaves the runs on the screen as the previous ones, and
 * so does a side's simulated run that failed (`failed`: a controller that threw, hung or did not load),
 * whose error is shown apart.
 */
export function staleReason(view: RunView, e: Experiment, slot: 'a' | 'b', busy: boolean, failedUpload: string | null, failed = false): string | null {
  if (view.source === 'imported') return null;
  if (failedUpload) return `the upload of ${failedUpload} failed; this is the run on the trace before it`;
  if (busy) return null;
  const scheme = schemeOfView(view);
  // a live fetch that failed shows what it fetched until then: its own run, stopped
  if (failed && view.source !== 'live') return 'the latest run failed (its error is below); this is the run before it';
  if (view.source === 'live') {
    if (slot !== 'a' || !e.live) return 'a live run; the side is simulated now';
    return scheme === e.a.scheme ? null : `a live run of ${schemeTitle(scheme ?? '?')}, not of ${schemeTitle(e.a.scheme)}`;
  }
  if (slot === 'a' && e.live) return 'a simulated run; live mode has not fetched yet';
  if (scheme !== e[slot].scheme) return `a run of ${schemeTitle(scheme ?? '?')}, not of ${schemeTitle(e[slot].scheme)}`;
  // a trace that could not be loaded (one held out for a contest, a relay gone) leaves the run before it
  const [shown, asked] = [linkName(view.spec), linkName(specFor(e, slot))];
  return shown === asked ? null : `a run on ${shown}, not on ${asked}`;
}

/** The link a run's spec plays, as a person reads it: its trace, or its constant rate. */
function linkName(spec: RunView['spec']): string {
  if (!spec || !('workload' in spec)) return '?';
  const { kind, trace, mbps } = spec.link;
  return kind === 'trace' ? trace.replace(/^upload:/, '').replace(/\.down$/, '') : `a constant ${mbps} Mbit/s link`;
}

/** Why each side's shown run is stale, or null for a current one. */
export type Stale = Record<Slot, string | null>;

/** Each side's `staleReason`, for the cards and the charts of the run it shows alike. */
export function staleReasons(runs: Runs, e: Experiment, failedUpload: string | null): Stale {
  const of = (s: Slot) => {
    const view = runs.views[s];
    return view ? staleReason(view, e, s, Boolean(runs.busy[s]), failedUpload, runs.errors[s] !== undefined) : null;
  };
  return { a: of('a'), b: of('b') };
}

/** The heading of a side: its letter and the scheme of the run shown (or, with none yet, the one asked for). */
export function sideLabel(name: string, view: RunView | undefined, wanted: string): string {
  const scheme = view ? (schemeOfView(view) ?? wanted) : wanted;
  return `${name} · ${schemeTitle(scheme)}`;
}
