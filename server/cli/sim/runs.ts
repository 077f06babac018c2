import type { SimFlags } from './simFlags.ts';

/** What a sim command line runs: its scenario, or for the contest and the matrix the form asked for. */
export type Run = 'contest' | 'sweep' | 'scoreboard' | 'offset-constant' | 'offset-variable' | 'shared' | 'matrix row' | 'matrix' | 'measurement';

export function runOf(flags: SimFlags): Run {
  if (flags.scenario === 'contest') return flags.scoreboard ? 'scoreboard' : flags.sweep !== undefined ? 'sweep' : 'contest';
  if (flags.scenario === 'matrix') return flags.row === undefined ? 'matrix' : 'matrix row';
  return flags.scenario;
}
