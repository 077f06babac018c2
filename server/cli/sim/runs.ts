import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { LINK_PARAMS } from '../../../shared/link/params.ts';
import { flagName, UsageError } from '../flags.ts';
import { MEASUREMENT_FLAGS, SIM_FLAGS, type SimFlags } from './simFlags.ts';

/** What a sim command line runs: its scenario, or for the contest and the matrix the form asked for. */
export type Run = 'contest' | 'sweep' | 'scoreboard' | 'offset-constant' | 'offset-variable' | 'shared' | 'bulk' | 'fairness' | 'matrix row' | 'matrix' | 'measurement';

export function runOf(flags: SimFlags): Run {
  if (flags.scoreboard && flags.sweep !== undefined) throw new UsageError('--sweep and --scoreboard are two different runs of the contest: give one');
  if (flags.scenario === 'contest') return flags.scoreboard ? 'scoreboard' : flags.sweep !== undefined ? 'sweep' : 'contest';
  if (flags.scenario === 'matrix') return flags.row === undefined ? 'matrix' : 'matrix row';
  return flags.scenario;
}

/** How a run is asked for, in messages. */
const ASKED_BY: Record<Run, string> = {
  contest: '--scenario contest',
  sweep: '--sweep',
  scoreboard: '--scoreboard',
  'offset-constant': '--scenario offset-constant',
  'offset-variable': '--scenario offset-variable',
  shared: '--scenario shared',
  bulk: '--scenario bulk',
  fairness: '--scenario fairness',
  'matrix row': '--scenario matrix --row N',
  matrix: '--scenario matrix without --row',
  measurement: '--scenario measurement',
};

/** The runs of one scenario whose trace, summary and intervals the tool can write. */
const ONE_RUN: readonly Run[] = ['contest', 'offset-constant', 'offset-variable', 'shared', 'bulk', 'matrix row'];
const CONTESTS: readonly Run[] = ['contest', 'sweep', 'scoreboard'];
/** The runs whose link the link flags override (the matrix's rows have their own, the measurement the lab's). */
const LINKED: readonly Run[] = [...CONTESTS, 'offset-constant', 'offset-variable', 'shared', 'bulk', 'fairness'];
/** The link flags the measurement takes too, as its lab's settings (MEASUREMENT_FLAGS). */
const MEASURED = new Set(MEASUREMENT_FLAGS.map((p) => p.name));

/** The runs each flag has a use in; a flag not named here has one in every run. */
const FLAG_RUNS: Partial<Record<(typeof SIM_FLAGS)[number]['name'], readonly Run[]>> = {
  trace: [...CONTESTS, 'bulk'],
  scheme: [...ONE_RUN, 'sweep', 'matrix', 'fairness'],
  set: [...ONE_RUN, 'sweep', 'matrix'],
  flows: ['contest', 'offset-constant', 'offset-variable', 'shared', 'bulk'],
  duration: ['bulk', 'fairness'],
  hostJitter: ['contest', 'shared', 'bulk', 'fairness'],
  seeds: ['matrix'],
  row: ['matrix row'],
  sweep: ['sweep'],
  scoreboard: ['scoreboard'],
  preset: ['shared', 'bulk'],
  csv: [...ONE_RUN, 'sweep', 'scoreboard'],
  summaryCsv: ONE_RUN,
  interval: ONE_RUN,
};

/**
 * Refuses a flag given to a run that would ignore it (an output it would not write, a setting it would not
 * use): the message says what the flag does and for which runs.
 */
export function refuseFlagsNotFor(run: Run, given: Record<string, unknown>): void {
  const refuse = (name: string, runs: readonly Run[], doc: string) => {
    throw new UsageError(`--${flagName(name)} is for ${runs.map((r) => ASKED_BY[r]).join(', ')}, not for ${ASKED_BY[run]}: ${doc}`);
  };
  for (const spec of SIM_FLAGS) {
    const runs = FLAG_RUNS[spec.name];
    if (runs && !runs.includes(run) && given[flagName(spec.name)] !== undefined) refuse(spec.name, runs, spec.doc);
  }
  if (LINKED.includes(run)) return;
  for (const p of LINK_PARAMS) {
    // the matrix's rows set every other setting of their link; the link model they run on is the user's
    if (p.name === 'linkModel' && (run === 'matrix' || run === 'matrix row')) continue;
    if (run === 'measurement' && MEASURED.has(p.name)) continue;
    const runs = MEASURED.has(p.name) ? [...LINKED, 'measurement' as const] : LINKED;
    if (given[flagName(p.name)] !== undefined) refuse(p.name, runs, "a link flag sets the scenario's link");
  }
}

/** The one scheme of a run that takes one (a sweep, the matrix). */
export function oneScheme(run: Run, schemes: readonly string[]): string {
  if (schemes.length > 1) throw new UsageError(`--scheme: ${ASKED_BY[run]} runs one scheme (got ${schemes.join(', ')})`);
  return schemes[0];
}

/** Refuses an output file that is an input (the trace, a controller's code) or the other output: it would be overwritten. */
export function refuseOverwrites(flags: Pick<SimFlags, 'csv' | 'summaryCsv' | 'trace' | 'scheme'>): void {
  const inputs = [{ flag: '--trace', path: flags.trace }, ...flags.scheme.map((path) => ({ flag: '--scheme', path }))].filter((i) => existsSync(i.path));
  const outputs = [
    { flag: '--csv', path: flags.csv },
    { flag: '--summary-csv', path: flags.summaryCsv },
  ].filter((o): o is { flag: string; path: string } => Boolean(o.path));
  for (const [k, out] of outputs.entries()) {
    const same = [...inputs, ...outputs.slice(0, k)].find((other) => resolve(other.path) === resolve(out.path));
    if (same) throw new UsageError(`${out.flag} names the file ${same.flag} ${inputs.includes(same) ? 'reads' : 'writes'} (${out.path}): give it another`);
  }
}
