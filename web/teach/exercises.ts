import { findScheme } from '../../shared/controllers/registry.ts';
import { withDefaults } from '../../shared/controllers/types.ts';
import type { Summary } from '../../shared/metrics/summary.ts';
import { type Experiment, SCENARIO_SIDES, type Scenario } from '../state/experiment.ts';
import { settingsOf } from '../state/spec.ts';

/** Whether a run meets a goal, and what it lacks or how it did. */
export interface Verdict {
  met: boolean;
  why: string;
  /** The run is not what the exercise asks for (another scenario, trace or scheme): no goal was scored. */
  off?: boolean;
}

/** One course exercise as a goal the page can check on the runs it shows. */
export interface Exercise {
  id: string;
  title: string;
  goal: string;
  /** Whether a run of the current experiment meets the goal, and what it lacks; null when the goal is checked elsewhere. */
  check: ((e: Experiment, s: Summary, slot: 'a' | 'b') => Verdict) | null;
  /**
   * The overfitting lesson: a trace the settings were not tuned on, where the same controllers run again
   * and the same goal is scored, beside the one being tuned.
   */
  heldOut?: { trace: string; title: string; score(s: Summary): Verdict };
  /** Where the exercise is done, when not on the playground. */
  href?: string;
  /** What the playground must run for the exercise (web/app/exerciseSetup.ts sets it up as the exercise opens). */
  needs?: { scenario: Scenario; trace?: string; scheme?: string };
}

/** The settings whose values differ from the scenario's own: the link's, and the offset server's policy. */
export function changedSettings(e: Experiment): string[] {
  const values = (x: Experiment) => {
    const { link, policy } = settingsOf(x);
    return { ...link, ...policy };
  };
  const [now, own] = [values(e), values({ ...e, link: {}, offset: {} })];
  return Object.keys(own).filter((k) => now[k] !== own[k]);
}

/**
 * Why a side's run does not count for a goal, if it does not: the goal holds on the scenario's own link
 * and server, and the side the page opens with (the worked example) is not a solution.
 */
function notCounted(e: Experiment, slot: 'a' | 'b'): string | null {
  const changed = changedSettings(e);
  if (changed.length > 0) return `the goal is set on the scenario's own ${e.scenario === 'offset' ? 'server and link' : 'link'}; these settings change it: ${changed.join(', ')}`;
  const own = SCENARIO_SIDES[e.scenario][slot];
  const params = findScheme(own.scheme)?.params ?? [];
  const atDefaults = JSON.stringify(withDefaults(params, e[slot].params)) === JSON.stringify(withDefaults(params));
  if (e[slot].scheme === own.scheme && atDefaults) return 'the page’s own example, as it opens: change its settings or its controller';
  return null;
}

/** The contest's goal on a run's numbers alone, whatever the trace. */
const contestGoal =
  (minMbps: number, maxDelay: number) =>
  (s: Summary): Verdict => {
    const { throughputMbps: t, delay95: d } = s.all;
    const lacks = [t < minMbps ? `${(minMbps - t).toFixed(2)} Mbit/s more throughput` : '', d >= maxDelay ? `${Math.ceil(d - maxDelay + 1)} ms less delay95` : ''].filter(Boolean);
    return { met: lacks.length === 0, why: lacks.length ? `needs ${lacks.join(' and ')}` : `${t.toFixed(2)} Mbit/s at ${Math.round(d)} ms` };
  };

const contestCheck =
  (minMbps: number, maxDelay: number) =>
  (e: Experiment, s: Summary, slot: 'a' | 'b'): Verdict => {
    if (e.scenario !== 'contest' || e.trace !== 'Verizon-LTE-short') return { met: false, why: 'choose the contest on the Verizon LTE trace', off: true };
    const not = notCounted(e, slot);
    return not ? { met: false, why: not, off: true } : contestGoal(minMbps, maxDelay)(s);
  };

/** Tuned on Verizon LTE, scored on T-Mobile LTE too: settings that only fit one trace show it here. */
const heldOutOn = (minMbps: number, maxDelay: number) => ({ trace: 'TMobile-LTE-short', title: 'T-Mobile LTE', score: contestGoal(minMbps, maxDelay) });

export const EXERCISES: readonly Exercise[] = [
  {
    id: 'window',
    title: 'A fixed window',
    goal: 'With the fixed window, find a window that keeps 3 Mbit/s on Verizon LTE with delay95 under 400 ms.',
    check: (e, s, slot) => (e[slot].scheme !== 'fixed' ? { met: false, why: 'not the fixed window: choose it for A or B', off: true } : contestCheck(3, 400)(e, s, slot)),
    heldOut: heldOutOn(3, 400),
    needs: { scenario: 'contest', trace: 'Verizon-LTE-short', scheme: 'fixed' },
  },
  {
    id: 'delay',
    title: 'Low delay, good throughput',
    goal: 'Keep delay95 under 200 ms while keeping 4 Mbit/s on Verizon LTE. Then see whether your settings still meet it on T-Mobile LTE, a trace you did not tune on.',
    check: contestCheck(4, 200),
    heldOut: heldOutOn(4, 200),
    needs: { scenario: 'contest', trace: 'Verizon-LTE-short' },
  },
  {
    id: 'offset',
    title: 'The offset server',
    goal: 'Fetch the whole file from the offset server with the right MD5 and a penalty under 10.',
    check: (e, s, slot) => {
      const o = s.flows[0]?.offset;
      if (e.scenario !== 'offset' || !o) return { met: false, why: 'choose the offset server scenario', off: true };
      const not = notCounted(e, slot);
      if (not) return { met: false, why: not, off: true };
      if (o.result !== true) return { met: false, why: o.result === null ? 'the fetch has not finished' : 'the MD5 is wrong' };
      return o.penalty < 10 ? { met: true, why: `penalty ${o.penalty} in ${Math.round(o.timeMs)} ms` } : { met: false, why: `penalty ${o.penalty}: ${o.penalty - 9} too many` };
    },
    needs: { scenario: 'offset' },
  },
  { id: 'matrix', title: 'Reliable transport', goal: 'Pass every row of the test matrix on every seed.', check: null, href: '?view=transport-lab' },
  {
    id: 'measure',
    title: 'Measure a link',
    goal: 'With the truth hidden, estimate the bandwidth and the one-way delay from the echo times of two message sizes; then show the truth and compare.',
    check: null,
    href: '?view=measurement&hide=1',
  },
];

/** The exercise after this one, the first again after the last. */
export const nextExercise = (id: string): Exercise => EXERCISES[(EXERCISES.findIndex((x) => x.id === id) + 1) % EXERCISES.length];
