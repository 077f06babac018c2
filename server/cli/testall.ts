import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { csvFormat } from 'd3-dsv';
import { MATRIX, type MatrixRow } from '../../shared/scenarios/presets.ts';
import { rowTimeoutMs, runRow, type RowResult } from '../link/matrix.ts';
import { stopAll } from '../link/programs.ts';
import { isEntry, UsageError, whole } from './flags.ts';
import { runAsProcess } from './asProcess.ts';

const GROUPS: readonly MatrixRow['group'][] = ['basic', 'advanced', 'performance'];

const options = {
  send: { type: 'string' },
  recv: { type: 'string' },
  only: { type: 'string', multiple: true },
  row: { type: 'string', multiple: true },
  out: { type: 'string' },
  seed: { type: 'string', default: '1' },
  timeout: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

const help = () => `Usage: npm run testall -- --send 'CMD' --recv 'CMD' [options]

Runs the reliable-transport test matrix against real programs, each row through the emulated link
(npm run link) with the row's bandwidth, latency and impairments on both directions, as the course's
harness does: the receiver is started as \`RECV PORT\` and writes what it receives to stdout; the sender as
\`SEND 127.0.0.1:PORT\` with the file on its stdin. A row passes when the receiver's output equals the file
exactly. Timeouts as the course's: ${rowTimeoutMs(0) / 1000} s a row, ${rowTimeoutMs(MATRIX.findLastIndex((r) => r.group === 'advanced')) / 1000} s for the last advanced row.

  --send CMD           the sender's command line (run by sh; the proxy's address is appended)
  --recv CMD           the receiver's command line (the port is appended)
  --only GROUP         ${GROUPS.join(' | ')} (repeatable, or a comma list)
  --row N|NAME         one row by number (1–${MATRIX.length}) or name (repeatable)
  --out DIR            write each row's trace CSV (row-NN.csv) and the table (results.csv)
  --seed N             seed of the files and the impairments (default 1)
  --timeout S          one timeout for every row instead of the course's, seconds
  --json               print the results as one JSON object

Rows:
${MATRIX.map((r, i) => `  ${String(i + 1).padStart(2)} ${r.group.padEnd(11)} ${r.name}`).join('\n')}

Example: npm run testall -- --send 'python3 send.py' --recv 'python3 recv.py' --only basic --out results
`;

/** The rows the filters select, in the matrix's order. */
function selectRows(only: string[] | undefined, rows: string[] | undefined): number[] {
  const groups = (only ?? []).flatMap((g) => g.split(',')).filter(Boolean);
  for (const g of groups) if (!(GROUPS as string[]).includes(g)) throw new UsageError(`--only must be one of ${GROUPS.join(', ')} (got "${g}")`);
  const picked = new Set<number>();
  for (const r of rows ?? []) {
    const byName = MATRIX.findIndex((m) => m.name.toLowerCase() === r.trim().toLowerCase());
    const i = /^\d+$/.test(r) ? Number(r) - 1 : byName;
    if (i < 0 || i >= MATRIX.length) throw new UsageError(`--row must be a row number from 1 to ${MATRIX.length} or a row's name, e.g. "${MATRIX[0].name}" (got "${r}"; see --help)`);
    picked.add(i);
  }
  return MATRIX.map((_, i) => i).filter((i) => (picked.size === 0 || picked.has(i)) && (groups.length === 0 || groups.includes(MATRIX[i].group)));
}

const seconds = (s: number) => (Number.isFinite(s) ? s.toFixed(3) : '—');

/** The lab's columns: row, group, result, time, bytes on the wire, grade, test. */
function tableLine(r: RowResult): string {
  const line = `${String(r.row).padStart(2)} ${r.group.padEnd(11)} ${r.pass ? 'PASS' : 'FAIL'} ${seconds(r.seconds).padStart(9)} s ${String(r.bytesOnWire).padStart(9)} B  ${r.grade.padEnd(7)} ${r.name}`;
  return r.note ? `${line}\n   ${r.note}` : line;
}

async function main(): Promise<number> {
  const { values: v } = parseArgs({ options, strict: true, allowPositionals: false });
  if (v.help) {
    console.log(help());
    return 0;
  }
  if (!v.send?.trim() || !v.recv?.trim()) throw new UsageError('--send CMD and --recv CMD are both required');
  const indices = selectRows(v.only, v.row);
  if (indices.length === 0) throw new UsageError('the filters select no row (see --help for the rows and their groups)');
  const seed = whole('seed', v.seed, 0, 2 ** 31 - 1);
  const timeoutMs = v.timeout === undefined ? null : whole('timeout', v.timeout, 1, 3600) * 1000;
  if (v.out) mkdirSync(v.out, { recursive: true });
  const results: RowResult[] = [];
  for (const i of indices) {
    const csvPath = v.out ? join(v.out, `row-${String(i + 1).padStart(2, '0')}.csv`) : null;
    const r = await runRow(i, { send: v.send, recv: v.recv }, { seed, timeoutMs, csvPath });
    results.push(r);
    if (!v.json) console.log(tableLine(r));
  }
  const passed = results.filter((r) => r.pass).length;
  if (v.out) writeFileSync(join(v.out, 'results.csv'), `${csvFormat(results)}\n`);
  if (v.json) console.log(JSON.stringify({ rows: results, passed }));
  else console.log(`${passed}/${results.length} passed`);
  return passed === results.length ? 0 : 1;
}

// The programs run in process groups of their own, out of reach of the terminal's Ctrl-C: stop them here.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`testall: stopped by ${signal}`);
    void stopAll().then(() => process.exit(130));
  });
}

if (isEntry(import.meta.url)) await runAsProcess('testall', () => main(), import.meta.url);
