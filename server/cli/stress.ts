import { writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { contest } from '../../shared/scenarios/presets.ts';
import { summaryOfRun } from '../../shared/scenarios/measureRun.ts';
import { ScenarioError } from '../../shared/scenarios/run.ts';
import { gapOf, searchWorstTrace } from '../../shared/stress/search.ts';
import { formatSegments, MIN_SEGMENT_MS, segmentsTrace } from '../../shared/stress/segments.ts';
import { formatTrace } from '../../shared/trace/mahimahi.ts';
import { loadTrace } from '../traces.ts';
import { flagHelp } from './flagHelp.ts';
import { HELP_FLAG, outputFlag, readCommandLine, requiredFlag, seedFlag, switchFlag, wholeFlag } from './flags.ts';
import { runAsProcess } from './asProcess.ts';
import { buildFlows } from './sim/scenarios.ts';
import { isSchemeFile, loadSchemeFiles, parseSets, schemesHelp, setFlag } from './schemeFlags.ts';
import { ScoringPool } from './stress/pool.ts';
import { type Io, isEntry, type UsageFaults } from './tool.ts';

export const STRESS_FLAGS = [
  requiredFlag('scheme', 'ID|FILE', 'the controller to break: a built-in, or your own module ./my-controller.js (run with your own rights)'),
  setFlag(false),
  wholeFlag('budget', 'runs', 1, 100_000, 500, 'runs of the controller the search may make'),
  wholeFlag('duration', 's', 1, 600, 30, 'length of every trace tried'),
  seedFlag('seed of the search and of every run'),
  wholeFlag('threads', '', 1, 64, Math.max(1, availableParallelism()), 'worker threads that run the controller (default: one per core)'),
  outputFlag('out', 'where to write the worst trace, in Mahimahi format (default: a file in the system temp folder)'),
  switchFlag('json', 'print the result as one JSON object'),
  HELP_FLAG,
] as const;

const help = () => `Usage: npm run stress -- --scheme ID|FILE [options]

Searches for the link trace that breaks a controller: a genetic search over traces made of segments (rate
levels, rate changes, outages) for the one on which the controller's contest score, ln(Mbit/s ÷ ms), falls
furthest below the omniscient sender's on the same trace (its delay95 floored at 1 ms). Deterministic for a
seed, whatever the number of threads. Prints the worst trace's file, both scores, the command that
reproduces the run, and the controller's score on the contest trace for comparison.

${flagHelp(STRESS_FLAGS)}

Schemes and their parameters:
${schemesHelp()}
`;

/** The sim command line that runs the controller on a trace file exactly as the search scored it. */
function simCommand(scheme: string, sets: readonly string[], seed: number, path: string): string {
  const quoted = (s: string) => (/^[\w./@=:,+-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`);
  return ['npm run sim --', '--scheme', quoted(scheme), ...sets.flatMap((s) => ['--set', quoted(s)]), '--seed', String(seed), '--trace', quoted(path), '--json'].join(' ');
}

export async function stress(argv: string[], io: Io): Promise<number> {
  const line = readCommandLine(argv, STRESS_FLAGS);
  if (line.help) {
    io.out(help());
    return 0;
  }
  const { flags } = line;
  const totalMs = flags.duration * 1000;
  if (totalMs < 2 * MIN_SEGMENT_MS) throw new ScenarioError('--duration is too short for a trace of segments');
  const {
    ids: [scheme],
    schemes,
  } = await loadSchemeFiles([flags.scheme]);
  const params = buildFlows([scheme], 1, parseSets(flags.set), schemes)[0].params;
  const pool = new ScoringPool({ scheme: flags.scheme, params, seed: flags.seed }, flags.threads);
  const started = performance.now();
  try {
    const { worst, runs } = await searchWorstTrace({
      seed: flags.seed,
      budget: flags.budget,
      totalMs,
      evaluate: pool.evaluate,
      progress: (w, n) => flags.json || io.err(`${n} runs: worst gap ${gapOf(w).toFixed(2)} (${formatSegments(w.segments)})`),
    });
    const seconds = (performance.now() - started) / 1000;
    const label = isSchemeFile(flags.scheme) ? 'user' : flags.scheme;
    const path = resolve(flags.out ?? join(tmpdir(), `pipefill-stress-${label}-seed${flags.seed}-${flags.budget}.trace`));
    writeFileSync(path, formatTrace(segmentsTrace(worst.segments)));
    const onContest = summaryOfRun(contest('Verizon-LTE-short', buildFlows([scheme], 1, parseSets(flags.set), schemes), flags.seed), loadTrace, schemes).all.score;
    const result = {
      worst: { trace: path, segments: formatSegments(worst.segments), score: worst.score, omniscientScore: worst.omniscientScore, command: simCommand(flags.scheme, flags.set, flags.seed, path) },
      contest: { score: onContest },
      runs,
      runsPerSecond: runs / seconds,
    };
    io.out(flags.json ? JSON.stringify(result) : report(result));
    return 0;
  } finally {
    await pool.close();
  }
}

function report(r: { worst: { trace: string; segments: string; score: number; omniscientScore: number; command: string }; contest: { score: number }; runs: number; runsPerSecond: number }): string {
  return [
    `worst trace: ${r.worst.trace}`,
    `  segments (ms@Mbit/s): ${r.worst.segments}`,
    `  score ${r.worst.score.toFixed(3)} against the omniscient ${r.worst.omniscientScore.toFixed(3)} (gap ${(r.worst.omniscientScore - r.worst.score).toFixed(3)})`,
    `  reproduce: ${r.worst.command}`,
    `score on the contest trace (Verizon-LTE-short): ${r.contest.score.toFixed(3)}`,
    `${r.runs} runs, ${r.runsPerSecond.toFixed(1)} runs/s`,
  ].join('\n');
}

export const STRESS_USAGE: UsageFaults = { errors: [ScenarioError] };

if (isEntry(import.meta.url)) await runAsProcess('stress', stress, import.meta.url, STRESS_USAGE);
