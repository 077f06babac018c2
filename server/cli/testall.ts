import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { csvFormat } from 'd3-dsv';
import { LINK_MODELS, type LinkModel } from '../../shared/link/spec.ts';
import { MATRIX_LINK_MODEL } from '../../shared/scenarios/matrix.ts';
import { MATRIX, type MatrixRow } from '../../shared/scenarios/presets.ts';
import { rowTimeoutMs, runRow, type RowResult } from '../link/matrix.ts';
import { stopAll } from '../link/programs.ts';
import { flagHelp } from './flagHelp.ts';
import { HELP_FLAG, listFlag, oneOf, readCommandLine, requiredFlag, seedFlag, switchFlag, textFlag, UsageError, wholeFlag } from './flags.ts';
import { makeOutputDirectory } from './outputPaths.ts';
import { runAsProcess } from './asProcess.ts';
import { type Io, interrupted, isEntry } from './tool.ts';

const GROUPS: readonly MatrixRow['group'][] = ['basic', 'advanced', 'performance'];

/** The matrix index a --row value names, by number (from 1) or by name; -1 for none. */
function rowIndex(raw: string): number {
  if (/^\d+$/.test(raw)) return Number(raw) >= 1 && Number(raw) <= MATRIX.length ? Number(raw) - 1 : -1;
  return MATRIX.findIndex((m) => m.name.toLowerCase() === raw.trim().toLowerCase());
}

export const TESTALL_FLAGS = [
  requiredFlag('send', 'CMD', "the sender's command line (run by sh; the proxy's address is appended)", { accepts: /\S/, means: 'a command line' }),
  requiredFlag('recv', 'CMD', "the receiver's command line (the port is appended)", { accepts: /\S/, means: 'a command line' }),
  listFlag('only', 'GROUP', `${GROUPS.join(' | ')} (repeatable, or a comma list)`, { commas: true, accepts: (g) => (GROUPS as string[]).includes(g), means: oneOf(GROUPS) }),
  listFlag('row', 'N|NAME', `one row by number (1–${MATRIX.length}) or name (repeatable)`, {
    accepts: (r) => rowIndex(r) >= 0,
    means: `a row number from 1 to ${MATRIX.length} or a row's name, e.g. "${MATRIX[0].name}"`,
  }),
  textFlag('linkModel', LINK_MODELS.join('|'), MATRIX_LINK_MODEL, "the link the rows run on: netem, as the course's harness impairs its loopback, or Mahimahi's", {
    accepts: (m) => (LINK_MODELS as readonly string[]).includes(m),
    means: oneOf(LINK_MODELS),
  }),
  textFlag('out', 'DIR', null, "write each row's trace CSV (row-NN.csv) and the table (results.csv)"),
  seedFlag('seed of the files and the impairments'),
  wholeFlag('timeout', 's', 1, 3600, null, "one timeout for every row instead of the course's"),
  switchFlag('json', 'print the results as one JSON object'),
  HELP_FLAG,
] as const;

const help = () => `Usage: npm run testall -- --send 'CMD' --recv 'CMD' [options]

Runs the reliable-transport test matrix against real programs, each row through the emulated link
(npm run link) with the row's bandwidth, latency and impairments on both directions, as the course's
harness does (by default on the netem link model: one qdisc both ways, as tc on the loopback interface): the receiver is started as \`RECV PORT\` and writes what it receives to stdout; the sender as
\`SEND 127.0.0.1:PORT\` with the file on its stdin. A row passes when the receiver's output equals the file
exactly. Timeouts as the course's: ${rowTimeoutMs(0) / 1000} s a row, ${rowTimeoutMs(MATRIX.findLastIndex((r) => r.group === 'advanced')) / 1000} s for the last advanced row.

${flagHelp(TESTALL_FLAGS)}

Rows:
${MATRIX.map((r, i) => `  ${String(i + 1).padStart(2)} ${r.group.padEnd(11)} ${r.name}`).join('\n')}

Example: npm run testall -- --send 'python3 send.py' --recv 'python3 recv.py' --only basic --out results
`;

/** The rows the filters select, in the matrix's order. */
function selectRows(groups: readonly string[], rows: readonly string[]): number[] {
  const picked = new Set(rows.map(rowIndex));
  return MATRIX.map((_, i) => i).filter((i) => (picked.size === 0 || picked.has(i)) && (groups.length === 0 || groups.includes(MATRIX[i].group)));
}

const seconds = (s: number) => (Number.isFinite(s) ? s.toFixed(3) : '—');

/** The lab's columns: row, group, result, time, bytes on the wire, grade, test. */
function tableLine(r: RowResult): string {
  const line = `${String(r.row).padStart(2)} ${r.group.padEnd(11)} ${r.pass ? 'PASS' : 'FAIL'} ${seconds(r.seconds).padStart(9)} s ${String(r.bytesOnWire).padStart(9)} B  ${r.grade.padEnd(7)} ${r.name}`;
  return r.note ? `${line}\n   ${r.note}` : line;
}

export async function testallMain(argv: string[], io: Io): Promise<number> {
  const line = readCommandLine(argv, TESTALL_FLAGS);
  if (line.help) {
    io.out(help());
    return 0;
  }
  const { flags } = line;
  const indices = selectRows(flags.only, flags.row);
  if (indices.length === 0) throw new UsageError('the filters select no row (see --help for the rows and their groups)');
  const timeoutMs = flags.timeout === undefined ? null : flags.timeout * 1000;
  if (flags.out) makeOutputDirectory('out', flags.out);
  const results: RowResult[] = [];
  if (!flags.json)
    io.out(`link: ${flags.linkModel === 'netem' ? "Linux netem, one qdisc both ways as on the harness's loopback (limit 1000 packets)" : 'Mahimahi (a queue of 100 packets, then the delay)'}`);
  for (const i of indices) {
    const csvPath = flags.out ? join(flags.out, `row-${String(i + 1).padStart(2, '0')}.csv`) : null;
    const r = await runRow(i, { send: flags.send, recv: flags.recv }, { seed: flags.seed, model: flags.linkModel as LinkModel, timeoutMs, csvPath });
    results.push(r);
    if (!flags.json) io.out(tableLine(r));
  }
  const passed = results.filter((r) => r.pass).length;
  if (flags.out) writeFileSync(join(flags.out, 'results.csv'), `${csvFormat(results)}\n`);
  if (flags.json) io.out(JSON.stringify({ rows: results, passed }));
  else io.out(`${passed}/${results.length} passed`);
  return passed === results.length ? 0 : 1;
}

if (isEntry(import.meta.url)) {
  // The programs run in process groups of their own, out of reach of the terminal's Ctrl-C: stop them here.
  void interrupted().then(async (signal) => {
    console.error(`testall: stopped by ${signal}`);
    await stopAll();
    process.exit(130);
  });
  await runAsProcess('testall', testallMain, import.meta.url);
}
