import { decodeExperiment, DEFAULT_EXPERIMENT, type Experiment, SCENARIO_SIDES, type Scenario } from '../state/experiment.ts';
import { pageCatalogue } from './catalogue.ts';
import { EXERCISES } from '../teach/exercises.ts';

/** A new scenario starts from its own sides and link; the seed, the exercise open and the overlay stay. */
export const withScenario = (e: Experiment, scenario: Scenario): Experiment => ({
  ...DEFAULT_EXPERIMENT,
  ...structuredClone(SCENARIO_SIDES[scenario]),
  scenario,
  seed: e.seed,
  exercise: e.exercise,
  overlay: e.overlay,
  link: {},
  offset: {},
});

/**
 * The experiment with exercise `id` open and set up to be done: its scenario, its trace, and its scheme
 * on A when neither side runs it. What the experiment has already right (a shared link's tuned side)
 * stays as it is.
 */
export function readyFor(e: Experiment, id: string): Experiment {
  const needs = EXERCISES.find((x) => x.id === id)?.needs;
  let next = { ...e, exercise: id };
  if (!needs) return next;
  if (next.scenario !== needs.scenario) next = withScenario(next, needs.scenario);
  if (needs.trace && next.trace !== needs.trace) next = { ...next, trace: needs.trace };
  if (needs.scheme && next.a.scheme !== needs.scheme && next.b.scheme !== needs.scheme) next = { ...next, a: { scheme: needs.scheme, params: {} } };
  return next;
}

/** The experiment a URL opens, with what was wrong in it: a link to an exercise opens it ready to do. */
export function openedExperiment(search: string) {
  const opened = decodeExperiment(search, pageCatalogue());
  return opened.value.exercise ? { ...opened, value: readyFor(opened.value, opened.value.exercise) } : opened;
}
