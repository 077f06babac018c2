import { useEffect, useRef, useState } from 'react';
import type { RunView, WorkerResponse } from '../worker/protocol.ts';
import { WorkerPool } from '../worker/pool.ts';
import type { Experiment } from '../state/experiment.ts';
import { specFor } from '../state/spec.ts';
import { userCodeOf } from '../../shared/controllers/userScheme.ts';
import type { CheckResult } from '../worker/userModule.ts';

export type Slot = 'a' | 'b';

export interface Runs {
  views: Partial<Record<Slot, RunView>>;
  errors: Partial<Record<Slot, string>>;
  busy: Partial<Record<Slot, boolean>>;
  pool: WorkerPool;
  /** Replaces a side's view (an imported CSV) until the experiment changes again. */
  show(slot: Slot, view: RunView): void;
  fail(slot: Slot, message: string): void;
  startLive(relay: string, target: string, variable: boolean): void;
  /**
   * Runs a side of `next` with new user code, checked in the same worker pass; resolves with the check
   * (null: a newer run replaced it). A failed check leaves the side's run as it was.
   */
  checkAndRun(slot: Slot, next: Experiment, code: string): Promise<CheckResult | null>;
  stopLive(): void;
}

/**
 * Keeps both sides' runs in step with the experiment: every change re-runs what it affects in the
 * workers (coalesced to one request per animation frame), and the latest answers are what the page shows.
 */
export function useRuns(e: Experiment, uploadedMs: Record<string, number>): Runs {
  const pool = useRef<WorkerPool | null>(null);
  pool.current ??= new WorkerPool();
  const [views, setViews] = useState<Partial<Record<Slot, RunView>>>({});
  const [errors, setErrors] = useState<Partial<Record<Slot, string>>>({});
  const [busy, setBusy] = useState<Partial<Record<Slot, boolean>>>({});
  const last = useRef<Record<Slot, string>>({ a: '', b: '' });

  const handle = (slot: Slot, p: Promise<WorkerResponse>) => {
    setBusy((b) => ({ ...b, [slot]: true }));
    void p.then((r) => {
      // A skipped run's newer replacement is still under way.
      if (r.kind === 'superseded') return;
      setBusy((b) => ({ ...b, [slot]: false }));
      if (r.kind === 'error') setErrors((x) => ({ ...x, [slot]: r.message }));
    });
  };

  const specOf = (x: Experiment, slot: Slot) => specFor(x, slot, x.trace.startsWith('upload:') ? uploadedMs[x.trace.slice(7)] : undefined);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs follow the experiment and the uploads; the helpers are remade each render and change nothing.
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      for (const slot of ['a', 'b'] as const) {
        if (slot === 'a' && e.live) continue;
        const spec = specOf(e, slot);
        const key = JSON.stringify(spec);
        if (key === last.current[slot]) continue;
        last.current[slot] = key;
        setErrors((x) => ({ ...x, [slot]: undefined }));
        handle(
          slot,
          pool.current!.run(slot, spec, (view) => setViews((v) => ({ ...v, [slot]: view }))),
        );
      }
    });
    return () => cancelAnimationFrame(frame);
  }, [e, uploadedMs]);

  return {
    views,
    errors,
    busy,
    pool: pool.current,
    show(slot, view) {
      last.current[slot] = '';
      setViews((v) => ({ ...v, [slot]: view }));
    },
    fail(slot, message) {
      setErrors((x) => ({ ...x, [slot]: message }));
    },
    startLive(relay, target, variable) {
      last.current.a = '';
      setErrors((x) => ({ ...x, a: undefined }));
      handle(
        'a',
        pool.current!.request('a', { kind: 'live', relay, target, variable, scheme: e.a.scheme, params: e.a.params, policy: e.offset, code: userCodeOf(e.a.scheme) }, (view) =>
          setViews((v) => ({ ...v, a: view })),
        ),
      );
    },
    checkAndRun(slot, next, code) {
      const spec = { ...specOf(next, slot), code };
      const before = last.current[slot];
      // the experiment that installs this code asks for the same run: it is under way
      last.current[slot] = JSON.stringify(spec);
      return new Promise((resolve) => {
        let checked = false;
        const onChecked = (r: CheckResult) => {
          checked = true;
          if (!r.ok) last.current[slot] = before;
          resolve(r);
        };
        // an answer before the check's (a hang while loading, a newer run) is the check's; after it, the run's
        const checkFirst = (r: WorkerResponse): WorkerResponse => {
          if (checked) return r;
          last.current[slot] = before;
          if (r.kind !== 'error') {
            resolve(null);
            return r;
          }
          const result = { ok: false, message: r.message, line: null, column: null } as const;
          resolve(result);
          return { id: r.id, kind: 'checked', result };
        };
        handle(slot, pool.current!.run(slot, spec, (view) => setViews((v) => ({ ...v, [slot]: view })), onChecked).then(checkFirst));
      });
    },
    stopLive() {
      pool.current!.cancelLive('a');
    },
  };
}
