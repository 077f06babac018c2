import { LINK_PARAMS } from '../../shared/link/params.ts';
import type { LinkModel } from '../../shared/link/spec.ts';
import { MATRIX_LINK_MODEL } from '../../shared/scenarios/matrix.ts';
import { MATRIX, matrixRun } from '../../shared/scenarios/presets.ts';
import { ScenarioError } from '../../shared/scenarios/run.ts';
import { TraceError } from '../../shared/trace/mahimahi.ts';
import { readCommandLine } from './flags.ts';
import { loadSchemeFiles, parseSets } from './schemeFlags.ts';
import { runAsProcess } from './asProcess.ts';
import { type Io, isEntry, type UsageFaults } from './tool.ts';
import { runFairness } from './sim/fairness.ts';
import { measure, measuredLink } from './sim/measure.ts';
import { runMatrix } from './sim/matrix.ts';
import { emitRun, runOnce } from './sim/oneRun.ts';
import { oneScheme, refuseFlagsNotFor, refuseOverwrites, runOf } from './sim/runs.ts';
import { buildFlows, defaultScheme, scenarioSpec } from './sim/scenarios.ts';
import { SIM_FLAGS, simHelp } from './sim/simFlags.ts';
import { runSweep, scoreboardRuns, sweepRuns } from './sim/sweep.ts';

/** `npm run sim`: reads the command line, refuses flags the run would ignore, and runs what it asks for. */
export async function sim(argv: string[], io: Io): Promise<number> {
  const line = readCommandLine(argv, SIM_FLAGS, LINK_PARAMS);
  if (line.help) {
    io.out(simHelp());
    return 0;
  }
  const { flags, given } = line;
  const run = runOf(flags);
  refuseFlagsNotFor(run, given);
  refuseOverwrites(flags);
  if (flags.scenario === 'measurement') return measure(measuredLink(given), flags.seed, flags.json, io);
  const { ids: schemes, schemes: catalogue } = await loadSchemeFiles(flags.scheme.length > 0 ? flags.scheme : [defaultScheme(flags)]);
  const sets = parseSets(flags.set, 255);
  switch (run) {
    case 'scoreboard':
      return runSweep(scenarioSpec(flags, given, schemes, sets, catalogue), scoreboardRuns(), catalogue, flags, io);
    case 'sweep': {
      const base = scenarioSpec(flags, given, [oneScheme(run, schemes)], sets, catalogue);
      return runSweep(base, sweepRuns(base, flags.sweep!, catalogue), catalogue, flags, io);
    }
    case 'matrix':
    case 'matrix row': {
      const scheme = oneScheme(run, schemes);
      const params = buildFlows([scheme], 1, sets, catalogue)[0].params;
      const model = (given['link-model'] as LinkModel | undefined) ?? MATRIX_LINK_MODEL;
      if (run === 'matrix') return runMatrix(scheme, params, { first: flags.seed, count: flags.seeds, model }, catalogue, flags.json, io);
      emitRun(runOnce(matrixRun(MATRIX[flags.row! - 1], scheme, params, flags.seed, model), catalogue), flags, io);
      return 0;
    }
    case 'fairness':
      return runFairness(flags, given, schemes, catalogue, io);
    default:
      emitRun(runOnce(scenarioSpec(flags, given, schemes, sets, catalogue), catalogue), flags, io);
      return 0;
  }
}

/** A scenario the model refuses and a trace file that does not parse are the command line's fault too. */
export const SIM_USAGE: UsageFaults = { errors: [ScenarioError, TraceError] };

if (isEntry(import.meta.url)) await runAsProcess('sim', sim, import.meta.url, SIM_USAGE);
