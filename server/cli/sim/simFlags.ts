import { choice, type NumberParam } from '../../../shared/controllers/types.ts';
import { LINK_PARAMS } from '../../../shared/link/params.ts';
import { MATRIX_SEEDS } from '../../../shared/scenarios/matrix.ts';
import { FAIRNESS_SECONDS } from '../../../shared/scenarios/bulk.ts';
import { MEASUREMENT_BANDWIDTH, MEASUREMENT_DELAY, MEASUREMENT_JITTER } from '../../../shared/scenarios/measurementLink.ts';
import { BUNDLED_TRACES, MATRIX, SHARED_PRESETS } from '../../../shared/scenarios/presets.ts';
import { STARVATION } from '../../../shared/scenarios/starvation.ts';
import { flagHelp, schemaHelp } from '../flagHelp.ts';
import { type FlagValues, HELP_FLAG, listFlag, outputFlag, seedFlag, switchFlag, textFlag, wholeFlag } from '../flags.ts';
import { schemesHelp, setFlag } from '../schemeFlags.ts';

export const SCENARIOS = ['contest', 'offset-constant', 'offset-variable', 'matrix', 'shared', 'bulk', 'fairness', 'measurement'] as const;
export type Scenario = (typeof SCENARIOS)[number];

/** The sim's own flags; the link's come from its schema (LINK_PARAMS). */
export const SIM_FLAGS = [
  choice('scenario', SCENARIOS, 'contest', 'the experiment to run'),
  textFlag(
    'trace',
    'NAME|FILE',
    'Verizon-LTE-short',
    `contest trace: ${BUNDLED_TRACES.map((t) => t.name).join(', ')}, or a path to a Mahimahi file, or segments:MS@MBPS,… (a trace of rate segments, as npm run stress finds them)`,
  ),
  listFlag('scheme', 'ID|FILE', 'controller (a built-in, or your own module ./my-controller.js); repeat (or give a comma list) for several flows', { commas: true }),
  setFlag(true),
  wholeFlag('flows', '', 1, 255, 1, 'flows on the bottleneck (schemes repeat to fill)'),
  seedFlag('seed of every random choice'),
  wholeFlag('seeds', '', 1, 1000, MATRIX_SEEDS, 'matrix: run each row over seeds --seed … --seed+N−1'),
  wholeFlag('row', '', 1, MATRIX.length, null, 'matrix: run only this row and keep its trace'),
  textFlag('sweep', 'NAME=VALUES', null, 'contest: run the scheme once per value, e.g. w=2..512*2, gain=1..2+0.25, a=0.5,1,2, or per choice, e.g. decrease=sqrt,quartic', {
    accepts: /^[A-Za-z]\w*=.+$/,
    means: 'NAME=VALUES, e.g. w=2..512*2',
  }),
  wholeFlag('duration', 's', 1, 3600, FAIRNESS_SECONDS, 'bulk, fairness: how long the flows send (each cell of the grid)'),
  choice('hostJitter', ['on', 'off'], 'on', "flows sharing a bottleneck: each host's timing noise, up to one service time per packet (off shows phase effects)"),
  switchFlag('scoreboard', 'contest: every built-in window scheme at its defaults on the trace'),
  choice(
    'preset',
    [...SHARED_PRESETS.map((p) => p.id), STARVATION.id],
    'cdn',
    `shared: the bottleneck; shared or bulk: ${STARVATION.id}, two ${STARVATION.scheme} flows, the second's ACKs held up to ${STARVATION.jitterMs} ms`,
  ),
  outputFlag('csv', "write the run's event trace CSV; with --sweep or --scoreboard, the points' CSV (one row per run, as the contest lab exports it)"),
  outputFlag('summaryCsv', "write the run's per-interval summary CSV"),
  wholeFlag('interval', 'ms', 1, 3_600_000, 100, 'interval of the summary CSV'),
  switchFlag('json', 'print the summary as one JSON object'),
  HELP_FLAG,
] as const;

export type SimFlags = FlagValues<typeof SIM_FLAGS>;

/**
 * The measurement's link: the measurement lab's settings, with its ranges, under the link flags' names (the
 * page's address shortens the bandwidth to bw). The jitter is the link's --jitter, the same uniform noise on
 * a delay, on both ways of each ping-pong.
 */
export const MEASUREMENT_FLAGS: readonly NumberParam[] = [{ ...MEASUREMENT_BANDWIDTH, name: 'bandwidth' }, MEASUREMENT_DELAY, MEASUREMENT_JITTER];

export const simHelp = () => `Usage: npm run sim -- [options]

Runs one Pipefill experiment headless, prints its summary and can write the trace CSV.

Options:
${flagHelp(SIM_FLAGS)}

${schemaHelp(LINK_PARAMS, "Link (each overrides the scenario's own setting)")}

${schemaHelp(MEASUREMENT_FLAGS, "The measurement's link (--scenario measurement takes only these link flags, in the measurement lab's ranges)")}

Schemes and their parameters:
${schemesHelp()}
`;
