import { useEffect, useRef, useState } from 'react';
import type { Summary } from '../../../shared/metrics/summary.ts';
import type { ParamValues } from '../../../shared/controllers/types.ts';
import type { ScenarioSpec } from '../../../shared/scenarios/spec.ts';
import { sweepPoint, type SweepPoint } from '../../../shared/scenarios/sweep.ts';
import { SweepPool } from '../../worker/sweepPool.ts';
import { withPageCode } from '../../editor/userCode.ts';

/**
 * One run of a sweep (or of the scoreboard): which sweep it belongs to and the value it tries (a choice's
 * name, `value` then its rank in the sweep).
 */
export interface SweepRun {
  sweep: number;
  scheme: string;
  param: string;
  value: number;
  choice?: string;
  params: ParamValues;
}

export type SweepResult = SweepPoint & { sweep: number };

/** What a sweep's run tried, as its point's label says it: "aimd decrease=sqrt". */
export const triedValue = (r: { scheme: string; param: string; value: number; choice?: string }) => `${r.scheme} ${r.param}=${r.choice ?? r.value}`;

export interface Progress {
  done: number;
  total: number;
  running: boolean;
  ms: number;
}

/**
 * The sweep's runs, and when each runs the user's code, one more of a built-in on the same link: the
 * omniscient star is taken from runs without that code, which could move it in its own worker.
 */
function withStarRun(specs: ScenarioSpec[]): ScenarioSpec[] {
  if (specs.length === 0 || specs.some((s) => !s.code)) return specs;
  const { code: _, ...first } = specs[0];
  return [...specs, { ...first, flows: first.flows.map((f) => ({ ...f, scheme: 'fixed', params: {} })) }];
}

/** Runs sweeps over the worker pool: the points as they arrive, the progress, and each run's failure. */
export function useSweepRunner() {
  const [points, setPoints] = useState<SweepResult[]>([]);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [omni, setOmni] = useState<Summary['omniscient']>(null);
  const pool = useRef<SweepPool | null>(null);
  useEffect(() => () => pool.current?.close(), []);

  const start = async (runs: SweepRun[], specOf: (r: SweepRun) => ScenarioSpec, uploads: { name: string; text: string }[]) => {
    pool.current ??= new SweepPool();
    setPoints([]);
    setErrors([]);
    const t0 = performance.now();
    setProgress({ done: 0, total: runs.length, running: true, ms: 0 });
    let done = 0;
    // a failed run is done too: the sweep goes on without its point
    const count = () => setProgress({ done: ++done, total: runs.length, running: true, ms: performance.now() - t0 });
    const specs = withStarRun(runs.map((r) => withPageCode(specOf(r))));
    const finished = await pool.current.run(
      specs,
      (i, summary) => {
        if (!specs[i].code) setOmni(summary.omniscient);
        if (i >= runs.length) return;
        const r = runs[i];
        setPoints((p) => [...p, { ...sweepPoint(r.scheme, r.param, r.value, summary.all), choice: r.choice, sweep: r.sweep }]);
        count();
      },
      (i, message) => {
        if (i >= runs.length) return;
        setErrors((e) => [...e, `${triedValue(runs[i])}: ${message}`]);
        count();
      },
      uploads,
    );
    setProgress((p) => p && { ...p, running: false, ms: finished ? performance.now() - t0 : p.ms });
  };

  return { points, progress, errors, setErrors, omni, start, cancel: () => pool.current?.cancel() };
}
