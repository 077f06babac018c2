import { useEffect, useRef, useState } from 'react';
import type { Summary } from '../../../shared/metrics/summary.ts';
import { contest, flow } from '../../../shared/scenarios/presets.ts';
import type { ScenarioSpec } from '../../../shared/scenarios/spec.ts';
import { contestOnTrace, scoresOf } from '../../../shared/stress/score.ts';
import { type Scored, searchWorstTrace } from '../../../shared/stress/search.ts';
import { type Segment, segmentsName, segmentsTrace } from '../../../shared/stress/segments.ts';
import { SweepPool } from '../../worker/sweepPool.ts';
import { withPageCode } from '../../editor/userCode.ts';

export interface StressSettings {
  scheme: string;
  budget: number;
  seed: number;
  seconds: number;
}

export interface StressState {
  running: boolean;
  runs: number;
  /** Runs of the controller per second so far. */
  rate: number;
  worst: Scored | null;
  /** The controller's score on the contest trace, for comparison. */
  contestScore: number | null;
  error: string | null;
}

/** The contest run on a segment trace, as `npm run sim -- --trace segments:…` makes it. */
export const stressSpec = (segments: readonly Segment[], s: Pick<StressSettings, 'scheme' | 'seed'>): ScenarioSpec =>
  contestOnTrace(segmentsTrace(segments, segmentsName(segments)), flow(s.scheme), s.seed);

/** The controller's run on the contest trace, whose score the page gives beside the worst trace's. */
const onContestSpec = (s: Pick<StressSettings, 'scheme' | 'seed'>): ScenarioSpec => contest('Verizon-LTE-short', [flow(s.scheme)], s.seed);

/** Runs specs over the pool, each with the user's code when it runs it; every one must come back, or the first failure is thrown. */
async function summaries(pool: SweepPool, specs: ScenarioSpec[]): Promise<Summary[]> {
  const out: Summary[] = [];
  let failure: string | null = null;
  const finished = await pool.run(
    specs.map(withPageCode),
    (i, s) => (out[i] = s),
    (_, m) => (failure ??= m),
  );
  if (failure) throw new Error(failure);
  if (!finished) throw new Cancelled();
  return out;
}

class Cancelled extends Error {}

const IDLE: StressState = { running: false, runs: 0, rate: 0, worst: null, contestScore: null, error: null };

/**
 * The worst-trace search in the page: the same seeded search as `npm run stress`, each generation's runs
 * spread over the page's workers, so the same seed finds the same trace as the command line.
 */
export function useStressSearch() {
  const [state, setState] = useState<StressState>(IDLE);
  const pool = useRef<SweepPool | null>(null);
  // A trace scored alone (a link's) sets the state only while nothing has come since: no search, no clear.
  const latest = useRef(0);
  useEffect(() => () => pool.current?.close(), []);

  const start = async (s: StressSettings) => {
    pool.current ??= new SweepPool();
    const p = pool.current;
    const t0 = performance.now();
    latest.current++;
    setState({ ...IDLE, running: true });
    try {
      const [onContest] = await summaries(p, [onContestSpec(s)]);
      const { worst, runs } = await searchWorstTrace({
        seed: s.seed,
        budget: s.budget,
        totalMs: s.seconds * 1000,
        evaluate: async (batch) =>
          (
            await summaries(
              p,
              batch.map((segments) => stressSpec(segments, s)),
            )
          ).map(scoresOf),
        progress: (w, n) => setState((st) => ({ ...st, worst: w, runs: n, rate: n / ((performance.now() - t0) / 1000) })),
      });
      setState((st) => ({ ...st, running: false, worst, runs, contestScore: onContest.all.score }));
    } catch (e) {
      const error = e instanceof Cancelled ? null : `The search stopped: ${(e as Error).message}`;
      setState((st) => ({ ...st, running: false, error }));
    }
  };

  /** The figures a search gives its worst trace, for one trace without a search: the one a link carries. */
  const score = async (segments: Segment[], s: Pick<StressSettings, 'scheme' | 'seed'>) => {
    pool.current ??= new SweepPool();
    const mine = ++latest.current;
    setState(IDLE);
    try {
      const [onTrace, onContest] = await summaries(pool.current, [stressSpec(segments, s), onContestSpec(s)]);
      if (mine === latest.current) setState({ ...IDLE, worst: { ...scoresOf(onTrace), segments }, contestScore: onContest.all.score });
    } catch (e) {
      if (mine === latest.current && !(e instanceof Cancelled)) setState({ ...IDLE, error: `The trace could not be scored: ${(e as Error).message}` });
    }
  };

  const clear = () => {
    latest.current++;
    setState(IDLE);
  };

  return { state, start, score, cancel: () => pool.current?.cancel(), clear };
}
