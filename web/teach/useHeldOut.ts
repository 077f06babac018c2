import { useEffect, useMemo, useRef, useState } from 'react';
import { HELD_OUT_TRACE } from '../../shared/contest/api.ts';
import type { Summary } from '../../shared/metrics/summary.ts';
import { tracesWithheld } from '../../shared/scenarios/presets.ts';
import { type RelayState, relayInfo } from '../app/useRelay.ts';
import type { Experiment } from '../state/experiment.ts';
import { specFor } from '../state/spec.ts';
import { SweepPool } from '../worker/sweepPool.ts';
import type { Exercise } from './exercises.ts';

/** Each side's run on the held-out trace, for the settings it was made with. */
export interface HeldOutRuns {
  /** The settings these summaries belong to: results of other settings are never shown as current. */
  key: string;
  summaries: Partial<Record<'a' | 'b', Summary>>;
  errors: Partial<Record<'a' | 'b', string>>;
}

/** Both sides' answer when the relay's class contest holds the trace out: it would only refuse its file. */
const WITHHELD: HeldOutRuns = { key: 'withheld', summaries: {}, errors: { a: HELD_OUT_TRACE, b: HELD_OUT_TRACE } };

/**
 * Whether the trace can be run here: not while the relay has not said what it serves (it may refuse the
 * trace), nor when its class contest holds one of the trace's files out.
 */
function runnable(trace: string, relay: RelayState): boolean | 'withheld' {
  if (relay === 'unknown') return false;
  return tracesWithheld(relayInfo(relay)?.heldOutFiles ?? []).includes(trace) ? 'withheld' : true;
}

/**
 * Runs both sides again on the exercise's held-out trace (the same controllers, parameters, link
 * settings and seed) in their own workers whenever the settings change; nothing runs while no exercise
 * with a held-out trace is chosen. Returns the runs of the current settings, or null while they compute.
 */
export function useHeldOut(exercise: Exercise | undefined, e: Experiment, relay: RelayState): HeldOutRuns | null {
  const chosen = e.scenario === 'contest' ? exercise?.heldOut?.trace : undefined;
  const can = chosen ? runnable(chosen, relay) : false;
  const trace = can === true ? chosen : undefined;
  const specs = useMemo(() => (trace ? (['a', 'b'] as const).map((s) => specFor({ ...e, trace }, s)) : null), [trace, e]);
  const key = specs ? JSON.stringify(specs) : '';
  const [runs, setRuns] = useState<HeldOutRuns | null>(null);
  const pool = useRef<SweepPool | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the specs.
  useEffect(() => {
    if (!specs) return pool.current?.cancel();
    pool.current ??= new SweepPool(2);
    const done: HeldOutRuns = { key, summaries: {}, errors: {} };
    const side = (i: number) => (i === 0 ? 'a' : 'b');
    void pool.current
      .run(
        specs,
        (i, summary) => {
          done.summaries[side(i)] = summary;
        },
        (i, message) => {
          done.errors[side(i)] = message;
        },
      )
      .then((finished) => finished && setRuns(done));
  }, [key]);
  useEffect(() => () => pool.current?.close(), []);
  if (can === 'withheld') return WITHHELD;
  return runs && runs.key === key ? runs : null;
}
