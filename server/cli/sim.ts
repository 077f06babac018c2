import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SCHEMES, findScheme } from '../../shared/controllers/registry.ts';
import { formatTraceCsv } from '../../shared/csv/trace.ts';
import { formatIntervalCsv } from '../../shared/csv/intervals.ts';
import { summarize, type Summary } from '../../shared/metrics/summary.ts';
import { BUNDLED_TRACES, flow, MATRIX, matrixRun, offsetServer, SHARED_PRESETS, sharedBottleneck } from '../../shared/scenarios/presets.ts';
import { MATRIX_SEEDS, matrixRuns, rowVerdict } from '../../shared/scenarios/matrix.ts';
import { DEFAULT_MEASUREMENT, runMeasurement } from '../../shared/scenarios/measurement.ts';
import { runScenario, ScenarioError } from '../../shared/scenarios/run.ts';
import { bestBy, frontier, scoreboardEntries, sweepPoint, sweepValues, type SweepPoint } from '../../shared/scenarios/sweep.ts';
import { linkMetrics } from '../../shared/metrics/linkMetrics.ts';
import type { FlowSpec, ScenarioSpec } from '../../shared/scenarios/spec.ts';
import { TraceError } from '../../shared/trace/mahimahi.ts';
import { loadTrace } from '../traces.ts';
import { LINK_PARAMS, withLinkValues } from '../../shared/link/params.ts';
import {
  applySets,
  type Io,
  isEntry,
  loadSchemeFiles,
  parseSets,
  readSchemaFlags,
  checkWritable,
  schemaHelp,
  schemaOptions,
  schemesHelp,
  type SetFlag,
  UsageError,
  type UsageFaults,
  whole,
} from './flags.ts';
import { runAsProcess, userCodeDone } from './asProcess.ts';
import { contestOn } from '../../shared/scenarios/contestOn.ts';
import { withUserCode } from '../../shared/controllers/userInstalled.ts';

const SCENARIOS = ['contest', 'offset-constant', 'offset-variable', 'matrix', 'shared', 'measurement'] as const;

const options = {
  scenario: { type: 'string', default: 'contest' },
  trace: { type: 'string', default: 'Verizon-LTE-short' },
  scheme: { type: 'string', multiple: true },
  set: { type: 'string', multiple: true },
  flows: { type: 'string', default: '1' },
  seed: { type: 'string', default: '1' },
  row: { type: 'string' },
  seeds: { type: 'string', default: String(MATRIX_SEEDS) },
  sweep: { type: 'string' },
  scoreboard: { type: 'boolean', default: false },
  preset: { type: 'string', default: 'cdn' },
  csv: { type: 'string' },
  'summary-csv': { type: 'string' },
  interval: { type: 'string', default: '100' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  ...schemaOptions(LINK_PARAMS),
} as const;

function help(): string {
  return `Usage: npm run sim -- [options]

Runs one Pipefill experiment headless, prints its summary and can write the trace CSV.

Options:
  --scenario NAME     ${SCENARIOS.join(' | ')} (default contest)
  --trace NAME        contest trace: ${BUNDLED_TRACES.map((t) => t.name).join(', ')}, or a path to a Mahimahi file
  --scheme ID|FILE    controller (a built-in, or your own module ./my-controller.js); repeat (or give a
                      comma list) for several flows
  --set NAME=VALUE    controller parameter; FLOW.NAME=VALUE sets it for one flow only (repeatable)
  --flows N           flows on the bottleneck (1–255; schemes repeat to fill)
  --seed N            seed of every random choice (default 1)
  --seeds N           matrix: run each row over seeds --seed … --seed+N−1 (default ${MATRIX_SEEDS})
  --row N             matrix: run only row N (1–${MATRIX.length}) and keep its trace
  --sweep NAME=VALUES contest: run the scheme once per value, e.g. w=2..512*2, gain=1..2+0.25, a=0.5,1,2
  --scoreboard        contest: every built-in window scheme at its defaults on the trace
  --preset ID         shared: ${SHARED_PRESETS.map((p) => p.id).join(', ')}
  --csv FILE          write the event trace CSV
  --summary-csv FILE  write the per-interval summary CSV
  --interval MS       interval of the summary CSV (default 100)
  --json              print the summary as one JSON object
${schemaHelp(LINK_PARAMS, "Link (each overrides the scenario's own setting)")}
Schemes and their parameters:
${schemesHelp(SCHEMES)}
`;
}

/** Builds the flows from --scheme, --flows and --set, checking every value against its scheme's schema. */
function buildFlows(schemes: string[], count: number, sets: readonly SetFlag[], bytes: number | null, stagger: number): FlowSpec[] {
  const known = schemes.map((id) => findScheme(id) ?? unknownScheme(id));
  const flows = Array.from({ length: count }, (_, i) => flow(schemes[i % schemes.length], {}, i * stagger, bytes));
  for (const s of sets) if (s.flow !== null && s.flow >= count) whole('set', String(s.flow), 0, count - 1);
  applySets(
    sets,
    flows.map((f, i) => ({ scheme: known[i % known.length], params: f.params })),
  );
  return flows;
}

function unknownScheme(id: string): never {
  throw new UsageError(`--scheme: unknown scheme "${id}" (known: ${SCHEMES.map((s) => s.id).join(', ')})`);
}

function schemeList(given: string[] | undefined, fallback: string): string[] {
  return (given ?? [fallback]).flatMap((s) => s.split(',')).filter((s) => s !== '');
}

export interface SimOutput {
  summary: Summary;
  spec: ScenarioSpec;
  wallMs: number;
}

function run(spec: ScenarioSpec): SimOutput & { csv: () => string; intervals: (ms: number) => string } {
  spec = withUserCode(spec);
  const t0 = performance.now();
  const result = runScenario(spec, loadTrace);
  const wallMs = performance.now() - t0;
  const summary = summarize(result);
  return {
    summary,
    spec,
    wallMs,
    csv: () => formatTraceCsv(result.log, spec),
    intervals: (ms) => formatIntervalCsv(result.log, ms, result.endMs),
  };
}

const f = (v: number, digits = 2) => (Number.isFinite(v) ? v.toFixed(digits) : '—');

function printSummary(out: SimOutput): void {
  const s = out.summary;
  const lines = [`${s.workload} · seed ${s.seed} · ${f(s.endMs / 1000, 1)} s simulated in ${f(out.wallMs, 1)} ms · ${s.events} events`];
  if (s.workload === 'contest') {
    const a = s.all;
    lines.push(
      `throughput ${f(a.throughputMbps)} Mbit/s · delay95 (signal) ${f(a.delay95, 0)} ms · queueing p95 ${f(a.queueDelay95, 0)} ms · per-packet one-way p95 ${f(a.oneWay95, 0)} ms · self-inflicted p95 ${f(s.delays.selfInflicted95 ?? NaN, 0)} ms`,
      `power ${f(a.power, 1)} · score ln(tput/delay95) ${f(a.score, 3)}`,
    );
    if (s.omniscient) lines.push(`omniscient: ${f(s.omniscient.throughputMbps)} Mbit/s at ${f(s.omniscient.delay95, 0)} ms`);
  }
  for (const fl of s.flows) {
    const head = `flow ${fl.flow} (${fl.scheme})`;
    if (fl.reliable) {
      const r = fl.reliable;
      lines.push(
        `${head}: ${r.exact ? 'exact' : 'NOT EXACT'} · ${f(r.seconds, 3)} s · goodput ${f(r.goodputMbps, 3)} Mbit/s · wire/file ${f(r.overhead, 3)} · ${r.retransmissions} retransmissions · ${r.grade?.label ?? ''}`,
      );
    } else if (fl.offset) {
      const o = fl.offset;
      lines.push(
        `${head}: Result ${o.result} · Time ${o.timeMs} ms (bound ${f(o.boundMs, 0)} ms) · Penalty ${o.penalty} · ${o.requests} requests · ${o.duplicates} duplicates · ${o.squishes} squishes · MD5 ${o.md5}`,
      );
    } else if (s.flows.length > 1) {
      lines.push(`${head}: ${f(fl.link.throughputMbps)} Mbit/s · delay95 ${f(fl.link.delay95, 0)} ms`);
    }
  }
  print(lines.join('\n'));
}

/** Where this run of the tool prints (the process, or a test's buffer). */
let print: Io['out'] = () => {};

export async function sim(argv: string[], io: Io): Promise<number> {
  print = io.out;
  const { values: v } = parseArgs({ args: argv, options, strict: true, allowPositionals: false });
  if (v.help) {
    print(help());
    return 0;
  }
  if (!(SCENARIOS as readonly string[]).includes(v.scenario)) {
    throw new UsageError(`--scenario must be one of ${SCENARIOS.join(', ')} (got "${v.scenario}")`);
  }
  for (const flag of ['csv', 'summary-csv'] as const) if (v[flag]) checkWritable(flag, v[flag]);
  v.scheme = await loadSchemeFiles(v.scheme);
  const seed = whole('seed', v.seed, 0, 2 ** 31 - 1);
  const count = whole('flows', v.flows, 1, 255);
  const sets = parseSets(v.set, 255);
  whole('interval', v.interval, 1, 3_600_000);
  let spec: ScenarioSpec;
  switch (v.scenario) {
    case 'contest': {
      const flows = buildFlows(schemeList(v.scheme, 'aimd'), count, sets, null, 0);
      // A trace given by path lasts as long as the file says.
      spec = contestOn(v.trace, flows, seed, (path) => loadTrace(path).times.at(-1)!);
      if (v.sweep !== undefined || v.scoreboard) {
        spec.link = withLinkValues(spec.link, readSchemaFlags(LINK_PARAMS, v, 'the link'));
        return runSweep(spec, v.sweep, v.scoreboard, v.json);
      }
      break;
    }
    case 'offset-constant':
    case 'offset-variable':
      spec = offsetServer(v.scenario === 'offset-variable', buildFlows(schemeList(v.scheme, 'burst-aimd'), count, sets, 1_000_000, 0), seed);
      break;
    case 'shared': {
      const preset = SHARED_PRESETS.find((p) => p.id === v.preset);
      if (!preset) throw new UsageError(`--preset must be one of ${SHARED_PRESETS.map((p) => p.id).join(', ')} (got "${v.preset}")`);
      const schemes = schemeList(v.scheme, 'reno');
      spec = sharedBottleneck(
        preset,
        Array.from({ length: Math.max(count, schemes.length) }, (_, i) => schemes[i % schemes.length]),
        seed,
      );
      const flows = buildFlows(schemes, spec.flows.length, sets, null, 0);
      spec.flows.forEach((fl, i) => (fl.params = flows[i].params));
      break;
    }
    case 'matrix':
      return runMatrix(v.row, schemeList(v.scheme, 'reno')[0], sets, { first: seed, count: whole('seeds', v.seeds, 1, 1000) }, v);
    case 'measurement': {
      const m = runMeasurement({ ...DEFAULT_MEASUREMENT, seed });
      const out = { truth: { mbps: DEFAULT_MEASUREMENT.mbps, delayMs: DEFAULT_MEASUREMENT.delayMs }, fit: m.fit, samples: m.samples };
      if (v.json) print(JSON.stringify(out));
      else print(`measured ${f(m.fit.mbps, 3)} Mbit/s and ${f(m.fit.delayMs, 3)} ms one way (truth ${out.truth.mbps} Mbit/s, ${out.truth.delayMs} ms) from ${m.samples.length} ping-pongs`);
      return 0;
    }
    default:
      throw new UsageError(`unknown scenario ${v.scenario}`);
  }
  spec.link = withLinkValues(spec.link, readSchemaFlags(LINK_PARAMS, v, 'the link'));
  const out = run(spec);
  emit(out, v);
  return 0;
}

function emit(out: ReturnType<typeof run>, v: { json: boolean; csv?: string; 'summary-csv'?: string; interval: string }): void {
  userCodeDone();
  if (v.csv) writeFileSync(v.csv, out.csv());
  if (v['summary-csv']) writeFileSync(v['summary-csv'], out.intervals(Number(v.interval)));
  if (v.json) print(JSON.stringify({ ...out.summary, wallMs: out.wallMs }));
  else printSummary(out);
}

/** Runs one contest per sweep value (or per scheme, for the scoreboard) and prints the points. */
function runSweep(base: ScenarioSpec, sweep: string | undefined, scoreboard: boolean, json: boolean): number {
  const runs: { scheme: string; param: string; value: number; params: FlowSpec['params'] }[] = [];
  if (scoreboard) {
    for (const e of scoreboardEntries()) runs.push({ scheme: e.scheme, param: '', value: NaN, params: e.params });
  } else {
    const m = /^([A-Za-z]\w*)=(.+)$/.exec(sweep ?? '');
    if (!m) throw new UsageError(`--sweep must look like NAME=VALUES, e.g. w=2..512*2 (got "${sweep}")`);
    const scheme = base.flows[0].scheme;
    const values = sweepValues(scheme, m[1], m[2]);
    if ('error' in values) throw new UsageError(`--sweep ${values.error}`);
    for (const value of values) runs.push({ scheme, param: m[1], value, params: { ...base.flows[0].params, [m[1]]: value } });
  }
  const t0 = performance.now();
  const points: SweepPoint[] = runs.map((r) => {
    const spec = { ...base, flows: [{ ...base.flows[0], scheme: r.scheme, params: r.params }] };
    return sweepPoint(r.scheme, r.param, r.value, linkMetrics(runScenario(spec, loadTrace).log));
  });
  const wallMs = performance.now() - t0;
  const front = frontier(points);
  const out = { trace: base.link.trace, points, frontier: front, bestPower: bestBy(points, 'power'), bestScore: bestBy(points, 'score'), wallMs };
  if (json) print(JSON.stringify(out));
  else {
    for (const p of points) {
      const name = scoreboard ? p.scheme.padEnd(16) : `${p.param}=${p.value}`.padEnd(16);
      const marks = [p === out.bestPower ? 'best power' : '', p === out.bestScore ? 'best score' : '', front.includes(p) ? 'frontier' : ''].filter(Boolean).join(', ');
      print(`${name} ${f(p.throughputMbps).padStart(6)} Mbit/s ${f(p.delay95, 0).padStart(6)} ms  power ${f(p.power, 1).padStart(7)}  score ${f(p.score, 3).padStart(7)}  ${marks}`);
    }
    print(`${points.length} runs in ${f(wallMs / 1000, 2)} s`);
  }
  return 0;
}

function runMatrix(rowFlag: string | undefined, scheme: string, sets: readonly SetFlag[], seeds: { first: number; count: number }, v: Parameters<typeof emit>[1]): number {
  const flows = buildFlows([scheme], 1, sets, null, 0);
  if (rowFlag !== undefined) {
    emit(run(matrixRun(MATRIX[whole('row', rowFlag, 1, MATRIX.length) - 1], scheme, flows[0].params, seeds.first)), v);
    return 0;
  }
  const table = MATRIX.map((row, i) => {
    const outs = matrixRuns(row, scheme, flows[0].params, seeds.count, seeds.first).map(run);
    const verdict = rowVerdict(outs.map((o) => o.summary));
    const r = outs[0].summary.flows[0].reliable!;
    const wallMs = outs.reduce((sum, o) => sum + o.wallMs, 0);
    return {
      row: i + 1,
      group: row.group,
      name: row.name,
      pass: verdict.passed === verdict.seeds,
      passed: verdict.passed,
      seeds: verdict.seeds,
      timedOut: verdict.timedOut,
      spread: verdict.spread,
      verdicts: verdict.verdicts,
      seconds: r.seconds,
      bytesOnWire: Math.round(r.overhead * (outs[0].spec.flows[0].bytes ?? 0)),
      grade: r.grade?.label ?? null,
      wallMs,
    };
  });
  if (v.json) print(JSON.stringify({ scheme, seeds: seeds.count, rows: table }));
  else {
    for (const t of table) print(`${String(t.row).padStart(2)} ${t.group.padEnd(11)} ${`${t.passed}/${t.seeds}`.padStart(5)} pass ${t.spread.padEnd(15)} ${t.name}`);
    print(`${table.filter((t) => t.pass).length}/${table.length} rows passed on all ${seeds.count} seeds`);
  }
  return table.every((t) => t.pass) ? 0 : 1;
}

/** A scenario the model refuses and a trace file that does not parse are the command line's fault too. */
export const SIM_USAGE: UsageFaults = { errors: [ScenarioError, TraceError] };

if (isEntry(import.meta.url)) await runAsProcess('sim', sim, import.meta.url, SIM_USAGE);
