import { rememberOwnSession } from '../live/ownSessions.ts';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { RunSeries } from '../../shared/metrics/series.ts';
import type { RunView, Slot, WorkerResponse } from '../worker/protocol.ts';
import { playgroundPool, type WorkerPool } from '../worker/pool.ts';
import type { Experiment } from '../state/experiment.ts';
import { specFor } from '../state/spec.ts';
import type { ScenarioSpec } from '../../shared/scenarios/spec.ts';
import { userCodeOf } from '../../shared/controllers/userInstalled.ts';
import type { CheckResult } from '../worker/userModule.ts';
import { pageSchemes, withPageCode } from '../editor/userCode.ts';
import { putWholeDots } from './wholeDots.ts';
import { useSlowNotes } from './slowNotes.ts';

export type { Slot };

export interface Runs {
  views: Partial<Record<Slot, RunView>>;
  /** A side's first seconds, drawn while its first run is computed (nothing else of it is shown yet). */
  previews: Partial<Record<Slot, RunSeries>>;
  errors: Partial<Record<Slot, string>>;
  busy: Partial<Record<Slot, boolean>>;
  /** A busy side whose user code runs slowly: how slowly (web/app/slowNotes.ts). */
  slow: Partial<Record<Slot, string>>;
  pool: WorkerPool;
  /**
   * Asks for the runs of an experiment about to be shown, before the page renders it: the workers compute
   * while it does (the render's own ask then finds them asked).
   */
  ask(next: Experiment): void;
  /** Replaces a side's view (an imported CSV) until the experiment changes again. */
  show(slot: Slot, view: RunView): void;
  fail(slot: Slot, message: string): void;
  /** `id`: what the fetch's Submit gives as the student's id. */
  startLive(relay: string, target: string, variable: boolean, id: string): void;
  /**
   * Runs a side of `next` with new user code, checked in the same worker pass; resolves with the check
   * (null: a newer run replaced it). A failed check leaves the side's run as it was.
   */
  checkAndRun(slot: Slot, next: Experiment, code: string): Promise<CheckResult | null>;
  stopLive(): void;
  /**
   * Puts the sides' whole dots in place of the coarse copies their views came with (a zoom to a few seconds
   * draws every packet; a figure holds them all); resolves once the page holds them.
   */
  wholeDots(slots?: readonly Slot[]): Promise<void>;
}

type PerSide<T> = Partial<Record<Slot, T>>;

/** What the page shows of each side, and how a worker's answers reach it. */
function useSides() {
  const [views, setViews] = useState<PerSide<RunView>>({});
  const [previews, setPreviews] = useState<PerSide<RunSeries>>({});
  const [errors, setErrors] = useState<PerSide<string>>({});
  const [busy, setBusy] = useState<PerSide<boolean>>({});
  const dropPreview = (slot: Slot) => setPreviews((p) => (p[slot] ? { ...p, [slot]: undefined } : p));
  /** Marks the side busy until its answer comes: a failure is its error; a superseded run's replacement is still under way. */
  const handle = (slot: Slot, p: Promise<WorkerResponse>) => {
    setBusy((b) => ({ ...b, [slot]: true }));
    void p.then((r) => {
      if (r.kind === 'superseded') return;
      setBusy((b) => ({ ...b, [slot]: false }));
      // A run that failed after its first seconds leaves no preview of itself behind.
      dropPreview(slot);
      if (r.kind === 'error') setErrors((x) => ({ ...x, [slot]: r.message }));
    });
  };
  const showOf = (slot: Slot) => (view: RunView) => {
    setViews((v) => ({ ...v, [slot]: view }));
    dropPreview(slot);
  };
  return { views, setViews, previews, setPreviews, errors, setErrors, busy, dropPreview, handle, showOf };
}

/**
 * Runs a side's spec with new user code, checked in the same worker pass; resolves with the check (null:
 * a newer run replaced it). A failed check leaves the side's run as it was: `last` forgets the spec.
 */
function checkThenRun(pool: WorkerPool, last: Record<Slot, string>, sides: ReturnType<typeof useSides>, slot: Slot, spec: ScenarioSpec): Promise<CheckResult | null> {
  const before = last[slot];
  // the experiment that installs this code asks for the same run: it is under way
  last[slot] = JSON.stringify(spec);
  // A new try: the side's last failure no longer stands; a failed check is the side's failure, as a run's.
  const failed = (message: string | undefined) => sides.setErrors((x) => ({ ...x, [slot]: message }));
  failed(undefined);
  return new Promise((resolve) => {
    let checked = false;
    const onChecked = (r: CheckResult) => {
      checked = true;
      if (!r.ok) {
        last[slot] = before;
        failed(r.message);
      }
      resolve(r);
    };
    // an answer before the check's (a hang while loading, a newer run) is the check's; after it, the run's
    const checkFirst = (r: WorkerResponse): WorkerResponse => {
      if (checked) return r;
      last[slot] = before;
      if (r.kind !== 'error') {
        resolve(null);
        return r;
      }
      const result = { ok: false, message: r.message, line: null, column: null } as const;
      failed(r.message);
      resolve(result);
      return { id: r.id, kind: 'checked', result };
    };
    sides.handle(slot, pool.run(slot, spec, sides.showOf(slot), { onChecked }).then(checkFirst));
  });
}

/** A side's run of the experiment, the user's code with it where a flow runs it. */
const specOf = (x: Experiment, slot: Slot, uploadedMs: Record<string, number>) => withPageCode(specFor(x, slot, x.trace.startsWith('upload:') ? uploadedMs[x.trace.slice(7)] : undefined));

/** The sides the workers simulate (a live fetch's side is fetched). */
const simulatedSides = (e: Experiment): Slot[] => (e.live ? ['b'] : ['a', 'b']);

/**
 * Whether a side with nothing on screen is shown its run's first seconds: only a contest run, which lasts
 * its whole time (a fetch's end is not known before it ends).
 */
const previewed = (e: Experiment) => e.scenario === 'contest';

/**
 * Asks for the runs of the experiment the page opens on as it loads, before it renders: the workers run
 * them while the page renders, and its first ask of the same runs takes them over.
 */
export function askFirstRuns(e: Experiment): void {
  for (const slot of simulatedSides(e)) playgroundPool().runEarly(slot, specOf(e, slot, {}), previewed(e));
}

/**
 * Keeps both sides' runs in step with the experiment: every change re-runs what it affects in the
 * workers, and the latest answers are what the page shows.
 */
export function useRuns(e: Experiment, uploadedMs: Record<string, number>): Runs {
  const pool = useRef<WorkerPool | null>(null);
  pool.current ??= playgroundPool();
  const sides = useSides();
  const { views, setViews, setPreviews, setErrors, dropPreview, handle, showOf } = sides;
  const last = useRef<Record<Slot, string>>({ a: '', b: '' });

  const askFor = (x: Experiment) => {
    for (const slot of simulatedSides(x)) {
      const spec = specOf(x, slot, uploadedMs);
      const key = JSON.stringify(spec);
      if (key === last.current[slot]) continue;
      last.current[slot] = key;
      setErrors((x) => ({ ...x, [slot]: undefined }));
      // Only a side with nothing on screen is previewed (a shown run stays whole until its successor is).
      const onPreview = views[slot] || !previewed(x) ? undefined : (series: RunSeries) => setPreviews((p) => ({ ...p, [slot]: series }));
      // A preview belongs to the run it came with: a run asked without one leaves none behind.
      if (!onPreview) dropPreview(slot);
      handle(slot, pool.current!.run(slot, spec, showOf(slot), { onPreview }));
    }
  };
  const ask = () => askFor(e);
  // The page's first runs start before its first paint: the workers compute while the page draws itself.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only once, on mounting.
  useLayoutEffect(ask, []);
  // Later changes (a slider's drag) ask at once, each step of a drag too: a worker drops a run that a newer
  // request replaced at its next slice (web/worker/simWorker.ts), and an unchanged spec asks for nothing.
  // A control's change has mostly asked already (`ask`, before the page rendered it).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs follow the experiment and the uploads; the helpers are remade each render and change nothing.
  useEffect(ask, [e, uploadedMs]);
  const slow = useSlowNotes(pool.current, sides.busy);

  return {
    views,
    ask: askFor,
    previews: sides.previews,
    errors: sides.errors,
    busy: sides.busy,
    slow,
    pool: pool.current,
    show(slot, view) {
      last.current[slot] = '';
      setViews((v) => ({ ...v, [slot]: view }));
    },
    fail(slot, message) {
      setErrors((x) => ({ ...x, [slot]: message }));
    },
    startLive(relay, target, variable, id) {
      last.current.a = '';
      setErrors((x) => ({ ...x, a: undefined }));
      const request = { kind: 'live', relay, target, variable, submitAs: id, scheme: e.a.scheme, params: e.a.params, policy: e.offset, code: userCodeOf(e.a.scheme, pageSchemes()) } as const;
      handle(
        'a',
        pool.current!.request('a', request, (view) => {
          // the fetch's relay session, once its result names it: the Sessions view marks it as this page's
          rememberOwnSession(view.live?.session);
          setViews((v) => ({ ...v, a: view }));
        }),
      );
    },
    checkAndRun: (slot, next, code) => checkThenRun(pool.current!, last.current, sides, slot, { ...specOf(next, slot, uploadedMs), code }),
    stopLive() {
      pool.current!.cancelLive('a');
    },
    async wholeDots(slots = ['a', 'b'] as const) {
      // rendered at once: a figure made next reads the charts drawn with them
      const put = (slot: Slot) => (update: (now: RunView | null) => RunView | null) =>
        flushSync(() =>
          setViews((v) => {
            const next = update(v[slot] ?? null);
            return next === (v[slot] ?? null) ? v : { ...v, [slot]: next ?? undefined };
          }),
        );
      await Promise.all(slots.map((slot) => views[slot] && putWholeDots(pool.current, slot, views[slot], put(slot))));
    },
  };
}
