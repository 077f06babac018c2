import { Rng } from '../sim/rng.ts';
import { crossover, mutate, randomSegments, type Segment } from './segments.ts';

/** How a candidate trace went: the controller's contest score and the omniscient sender's on it. */
export interface Scored {
  segments: Segment[];
  score: number;
  omniscientScore: number;
}

/** How far the controller falls below the omniscient sender: what the search makes as large as it can. */
export const gapOf = (s: Scored) => s.omniscientScore - s.score;

/** Runs the controller on each trace; the caller may spread them over workers, the order of results kept. */
export type Evaluate = (batch: Segment[][]) => Promise<Omit<Scored, 'segments'>[]>;

export interface SearchOptions {
  seed: number;
  /** Runs of the controller the search may make. */
  budget: number;
  /** Every trace's length, ms. */
  totalMs: number;
  evaluate: Evaluate;
  /** Told after each generation, with the worst trace so far and the runs made. */
  progress?: (worst: Scored, runs: number) => void;
}

/** Traces bred per generation: enough to spread over every core, few enough for many generations. */
export const POPULATION = 16;

/**
 * A genetic search over segment traces, in the spirit of CC-Fuzz: a random first generation, then children
 * of the worst traces so far (two-way tournaments, a crossover half the time, always a mutation), the worst
 * `POPULATION` of parents and children kept. Every choice draws from the seed and a generation is scored
 * as one batch, so the same seed finds the same trace however the runs are spread.
 */
export async function searchWorstTrace(o: SearchOptions): Promise<{ worst: Scored; runs: number }> {
  const rng = new Rng(o.seed, 'stress');
  let runs = 0;
  const score = async (batch: Segment[][]): Promise<Scored[]> => {
    const results = await o.evaluate(batch);
    runs += batch.length;
    return results.map((r, i) => ({ ...r, segments: batch[i] }));
  };
  const first = Math.min(POPULATION, o.budget);
  let population = byGap(await score(Array.from({ length: first }, () => randomSegments(rng, o.totalMs))));
  o.progress?.(population[0], runs);
  while (runs < o.budget) {
    const n = Math.min(POPULATION, o.budget - runs);
    const children = Array.from({ length: n }, () => child(population, rng, o.totalMs));
    population = byGap([...population, ...(await score(children))]).slice(0, POPULATION);
    o.progress?.(population[0], runs);
  }
  return { worst: population[0], runs };
}

/** Worst (largest gap) first; ties keep their order, so the sort is the same on every engine. */
const byGap = (xs: Scored[]) =>
  xs
    .map((x, i) => [x, i] as const)
    .sort((a, b) => gapOf(b[0]) - gapOf(a[0]) || a[1] - b[1])
    .map(([x]) => x);

function child(population: readonly Scored[], rng: Rng, totalMs: number): Segment[] {
  const pick = () => {
    const a = population[rng.int(population.length)];
    const b = population[rng.int(population.length)];
    return gapOf(a) >= gapOf(b) ? a : b;
  };
  const parent = pick().segments;
  const bred = rng.chance(0.5) ? crossover(parent, pick().segments, rng, totalMs) : parent;
  return mutate(bred, rng, totalMs);
}
