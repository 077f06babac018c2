import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { BUNDLED_TRACES } from '../../shared/scenarios/presets.ts';
import { flagName, listFlag, readFlag, switchFlag, textFlag, UsageError, wholeFlag } from '../cli/flags.ts';
import { readRoster } from './roster.ts';
import { type ContestOptions, IDS_PER_ADDRESS, MAX_WAITING, WAITING_PER_ADDRESS } from './contest.ts';

/** The relay's contest flags (the relay's flag table takes them in; `--contest` turns the rest on). */

/** Scorers at most: one fewer than the cores, so the relay keeps one (at least one). */
export const MAX_SCORERS = Math.max(1, availableParallelism() - 1);

export const CONTEST_FLAGS = [
  switchFlag('contest', 'run the class contest: students submit controllers, the relay scores them in sandboxes (/api/contest, ?view=contest)'),
  listFlag('contestTrace', 'NAME|FILE', 'contest: a public trace (repeatable; default Verizon-LTE-short)', { commas: true }),
  listFlag('contestHeldOut', 'NAME|FILE', 'contest: a held-out trace, scored but never served (repeatable; default TMobile-LTE-short, ATT-LTE-driving-2016)', { commas: true }),
  wholeFlag('contestDelay', 'ms', 0, 5000, 20, 'contest: propagation delay each way'),
  textFlag('contestQueue', 'infinite|PACKETS', 'infinite', 'contest: the bottleneck queue, unlimited or a limit in packets', {
    accepts: /^(infinite|[1-9]\d{0,9})$/,
    means: 'infinite or a whole number of packets',
  }),
  switchFlag('contestReveal', 'contest: show the held-out scores from the start (else the operator reveals them in the page)'),
  wholeFlag('contestScorers', '', 1, 1024, MAX_SCORERS, `contest: submissions scored at once (at most ${MAX_SCORERS} here: one fewer than the cores)`),
  wholeFlag('contestGap', 's', 0, 86_400, 10, 'contest: least time between two submissions under one id'),
  wholeFlag('contestWaitingPerClient', '', 1, MAX_WAITING, WAITING_PER_ADDRESS, 'contest: submissions one client address may have waiting to be scored (a lab behind one NAT shares one)'),
  wholeFlag('contestIdsPerClient', '', 1, 100_000, IDS_PER_ADDRESS, 'contest: ids one client address may create, restarts included'),
  textFlag('contestRoster', 'FILE', null, "contest: the class's ids, one a line: only these may submit, each with the token the relay issues it (appended to FILE.tokens.csv)"),
  wholeFlag('contestMemory', 'MB', 64, 16_384, 256, "contest: each run's JavaScript heap"),
  wholeFlag('contestCpu', 's', 1, 3600, 30, "contest: each run's CPU time"),
  wholeFlag('contestWall', 's', 1, 3600, 60, "contest: each run's wall-clock time, less the time it waited for a CPU (at most 5× this in all)"),
] as const;

const value = (name: (typeof CONTEST_FLAGS)[number]['name'], given: Record<string, unknown>) => {
  const spec = CONTEST_FLAGS.find((f) => f.name === name)!;
  const raw = given[flagName(name)];
  if (raw !== undefined) return readFlag(spec, raw);
  return spec.kind === 'list' ? [] : spec.kind === 'switch' ? false : spec.default;
};

/** A contest trace: a bundled trace's name or a Mahimahi file that exists. */
function traceOf(flag: string, t: string): string {
  if (BUNDLED_TRACES.some((b) => b.name === t) || existsSync(t)) return t;
  throw new UsageError(`--${flag}: no bundled trace or file named ${t} (bundled: ${BUNDLED_TRACES.map((b) => b.name).join(', ')})`);
}

/** The contest the flags ask for, or null without --contest (whose flags are then refused). */
export function readContestFlags(given: Record<string, unknown>): ContestOptions | null {
  if (!given.contest) {
    const stray = CONTEST_FLAGS.find((f) => f.name !== 'contest' && given[flagName(f.name)] !== undefined);
    if (stray) throw new UsageError(`--${flagName(stray.name)} is for --contest, which runs the class contest`);
    return null;
  }
  const list = (name: 'contestTrace' | 'contestHeldOut', def: string[]) => {
    const v = value(name, given) as string[];
    return (v.length > 0 ? v : def).map((t) => traceOf(flagName(name), t));
  };
  const publicTraces = list('contestTrace', ['Verizon-LTE-short']);
  const heldOutTraces = list('contestHeldOut', ['TMobile-LTE-short', 'ATT-LTE-driving-2016']);
  const both = publicTraces.find((t) => heldOutTraces.includes(t));
  if (both) throw new UsageError(`--contest-held-out: ${both} is a public trace too: a trace is either served or held out`);
  const scorers = value('contestScorers', given) as number;
  if (scorers > MAX_SCORERS) throw new UsageError(`--contest-scorers: at most ${MAX_SCORERS} here (one fewer than the cores, so the relay keeps one)`);
  const queue = value('contestQueue', given) as string;
  const roster = value('contestRoster', given) as string | null;
  return {
    publicTraces,
    heldOutTraces,
    link: { delay: value('contestDelay', given) as number, ...(queue === 'infinite' ? { queue: 'infinite' } : { queue: 'packets', queueLimit: Number(queue) }) },
    reveal: Boolean(value('contestReveal', given)),
    scorers,
    gapSeconds: value('contestGap', given) as number,
    waitingPerClient: value('contestWaitingPerClient', given) as number,
    idsPerClient: value('contestIdsPerClient', given) as number,
    ...(roster !== null && { roster: { path: roster, ids: readRoster(roster) } }),
    limits: { memoryMb: value('contestMemory', given) as number, cpuSeconds: value('contestCpu', given) as number, wallSeconds: value('contestWall', given) as number },
  };
}
