import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { csvParse } from 'd3-dsv';
import { describe, expect, it } from 'vitest';
import { contestSchemes, SCHEMES } from '../../shared/controllers/registry.ts';
import { parseTraceCsv } from '../../shared/csv/trace.ts';
import type { ScenarioSpec } from '../../shared/scenarios/spec.ts';
import { sim as simMain, SIM_USAGE } from '../../server/cli/sim.ts';
import type { SweepPoint } from '../../shared/scenarios/sweep.ts';
import { SIM_FLAGS } from '../../server/cli/sim/simFlags.ts';
import { runInProcess } from '../helpers/cli.ts';
import { runCliAsync } from '../helpers/cliAsync.ts';
import { tempDir } from '../helpers/tempDir.ts';

const sim = (...args: string[]) => runInProcess('sim', simMain, args, SIM_USAGE);
const SIM_TRACE_DOC = SIM_FLAGS.find((f) => f.name === 'trace')!.doc;

describe('npm run sim', () => {
  it('--help lists scenarios, every scheme and each parameter with its range', async () => {
    const r = await sim('--help');
    expect(r.code).toBe(0);
    for (const s of SCHEMES) {
      expect(r.stdout).toContain(s.id);
      for (const p of s.params) expect(r.stdout).toContain(`${p.name}=`);
    }
    expect(r.stdout).toContain('a=0.1…10 packets');
    // a 0 that stands for a setting says so: the BDP estimator works its timeout out itself
    expect(r.stdout).toMatch(/timeout=0…1000 ms\s+\(default 0; 0 = auto\)/);
    expect(r.stdout).toMatch(/^ {2}--scenario +contest\|offset-constant\|offset-variable\|matrix\|shared\|bulk\|fairness\|measurement\n +the experiment to run \(default contest\)$/m);
    expect(r.stdout).toContain('--ack-loss');
    const lines = r.stdout.split('\n');
    for (const s of SCHEMES)
      expect(
        lines.filter((l) => l.startsWith(`  ${s.id} `)),
        s.id,
      ).toHaveLength(1);
  });

  it('prints power with three significant digits, as the page’s cards do (CUBIC’s is below 1)', async () => {
    const r = await sim('--scheme', 'cubic');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^power 0\.141 · score ln\(tput\/delay95\) -8\.869$/m);
  });

  it('runs as a script: the summary on stdout, a bad flag exits 2', async () => {
    const [ok, bad] = await Promise.all([runCliAsync('server/cli/sim.ts', ['--scenario', 'measurement']), runCliAsync('server/cli/sim.ts', ['--seed', 'x'])]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^measured [\d.]+ Mbit\/s/);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('sim: --seed must be a whole number from 0 to 2147483647 (got "x")\nRun with --help for the options.\n');
  });

  it('runs the documented example, writes the trace CSV and prints the summary', async () => {
    const dir = tempDir();
    const csv = join(dir, 'out.csv');
    const r = await sim('--scenario', 'contest', '--scheme', 'aimd', '--set', 'a=1', '--set', 'b=0.5', '--seed', '7', '--csv', csv);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/throughput \d+\.\d+ Mbit\/s · delay95 \(signal\) \d+ ms/);
    const trace = parseTraceCsv(readFileSync(csv, 'utf8'));
    const spec = trace.spec as ScenarioSpec;
    expect(spec.seed).toBe(7);
    expect(spec.flows[0]).toMatchObject({ scheme: 'aimd', params: { a: 1, b: 0.5 } });
    const events = Number(/(\d+) events/.exec(r.stdout)![1]);
    expect(trace.log.length).toBe(events);
  });

  it('--json prints one object whose numbers match the text summary', async () => {
    const j = await sim('--scheme', 'fixed', '--set', 'w=50', '--json');
    const t = await sim('--scheme', 'fixed', '--set', 'w=50');
    const s = JSON.parse(j.stdout);
    expect(s.workload).toBe('contest');
    expect(t.stdout).toContain(`throughput ${s.all.throughputMbps.toFixed(2)} Mbit/s`);
    expect(t.stdout).toContain(`delay95 (signal) ${s.all.delay95.toFixed(0)} ms`);
  });

  it('writes the per-interval summary CSV', async () => {
    const dir = tempDir();
    const file = join(dir, 'sum.csv');
    expect((await sim('--scheme', 'bdp', '--summary-csv', file, '--interval', '1000')).code).toBe(0);
    const rows = csvParse(readFileSync(file, 'utf8').split('\n').slice(1).join('\n'));
    expect(rows.length).toBe(140);
    expect(Number(rows[50].throughput_mbps)).toBeGreaterThan(0);
  });

  it('runs the other scenarios', async () => {
    expect((await sim('--scenario', 'offset-variable')).stdout).toMatch(/Result true · Time \d+ ms/);
    expect((await sim('--scenario', 'matrix', '--row', '13')).stdout).toMatch(/flow 1 \(reno\): exact/);
    // Flows are numbered from 1, as the page numbers them.
    const shared = (await sim('--scenario', 'shared', '--preset', 'moon', '--scheme', 'reno,cubic')).stdout;
    expect(shared).toMatch(/^flow 1 \(reno\): exact/m);
    expect(shared).toMatch(/^flow 2 \(cubic\): exact/m);
    expect((await sim('--scenario', 'measurement')).stdout).toMatch(/measured [\d.]+ Mbit\/s/);
    const m = await sim('--scenario', 'matrix', '--json', '--link-model', 'mahimahi');
    expect(m.code).toBe(1); // row 12 (50% drop each way) runs past the harness's 30 s on every seed
    expect(JSON.parse(m.stdout).rows).toHaveLength(21);
    expect(JSON.parse(m.stdout)).toMatchObject({ linkModel: 'mahimahi' });
    expect(JSON.parse(m.stdout).rows[11]).toMatchObject({ passed: 0, seeds: 10, timedOut: 10, spread: 'TIMEOUT' });
    // netem by default, as the course's harness; a link flag other than the model is the rows' own
    expect(JSON.parse((await sim('--scenario', 'matrix', '--json', '--seeds', '1')).stdout)).toMatchObject({ linkModel: 'netem', seeds: 1 });
    expect((await sim('--scenario', 'matrix', '--loss', '5')).stderr).toContain('--loss is for');
  });

  it('bad flags: a message naming the flag and the allowed range, exit code 2', async () => {
    const cases: [string[], RegExp][] = [
      [['--set', 'a=99'], /--set a must be a number from 0.1 to 10 packets \(got "99"\)/],
      [['--set', 'zz=1'], /aimd has no parameter "zz"/],
      [['--set', 'garbage'], /--set must look like NAME=VALUE/],
      [['--scheme', 'nope'], /--scheme: unknown scheme "nope"/],
      [['--seed', 'x'], /--seed must be a whole number from 0 to/],
      [['--flows', '0'], /--flows must be a whole number from 1 to 255/],
      [['--scenario', 'moon'], /--scenario must be one of/],
      [['--loss', '150'], /--loss: loss must be a number from 0 to 100 %/],
      [['--queue', 'red'], /--queue: queue must be one of infinite, packets, bytes/],
      [['--trace', '/nonexistent'], /no bundled trace or file named "\/nonexistent"/],
      [['--bogus'], /Unknown option '--bogus'/],
      [['--scheme', 'burst-aimd'], /contest needs a window scheme/],
      // a whole-number parameter takes no fraction here either, as the page's box and URL refuse it
      [['--scheme', 'fixed', '--set', 'w=2.5'], /--set w must be a whole number from 1 to 1000 packets \(got "2.5"\)/],
      [['--scheme', 'fixed', '--sweep', 'w=1..10+0.5'], /w must be a whole number from 1 to 1000 packets \(got "1.5"\)/],
      [['--scheme', 'aimd', '--sweep', 'decrease=sqrt,halve'], /--sweep decrease must be one of multiplicative, sqrt, quartic \(got "halve"\)/],
      [['--delay', '20.5'], /--delay: delay must be a whole number from 0 to 5000 ms/],
      // a link setting the run would not use is refused, not run as if it were set
      [['--bandwidth', '0.001'], /--bandwidth would change nothing: this link's rate is its trace's/],
      [['--codel-target', '500'], /--codel-target would change nothing: it is a setting of codel, and the queue's discipline is drop-tail/],
      [['--discipline', 'codel', '--pie-target', '50'], /--pie-target would change nothing: it is a setting of pie, and the queue's discipline is codel/],
      [['--queue-limit', '10'], /--queue-limit would change nothing: the queue is infinite: a limit takes a queue of packets or bytes \(--queue\)/],
    ];
    for (const [args, message] of cases) {
      const r = await sim(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
  });

  it('reads an uploaded trace file and reports a bad one by line', async () => {
    const dir = tempDir();
    const good = join(dir, 'good.trace');
    const bad = join(dir, 'bad.trace');
    writeFileSync(good, Array.from({ length: 2000 }, (_, i) => i + 1).join('\n'));
    writeFileSync(bad, '1\n2\nx\n');
    const ok = await sim('--trace', good, '--scheme', 'fixed', '--json');
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).endMs).toBe(2000);
    const sweep = await sim('--trace', good, '--scheme', 'fixed', '--sweep', 'w=10,20', '--json');
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(JSON.parse(sweep.stdout)).toMatchObject({ trace: good, points: [{ value: 10 }, { value: 20 }] });
    const r = await sim('--trace', bad);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/line 3: not a whole number/);
    // A folder, and a trace that would run for weeks (a slot per millisecond of it in memory): refused at once
    const folder = await sim('--trace', dir);
    expect([folder.code, folder.stderr.split('\n')[0]]).toEqual([2, `sim: ${dir} cannot be read as a trace (EISDIR)`]);
    const long = join(dir, 'long.trace');
    writeFileSync(long, '2000000000\n');
    const weeks = await sim('--trace', long);
    expect([weeks.code, weeks.stderr.split('\n')[0]]).toEqual([2, `sim: ${long}: line 1: "2000000000" ms is past the 3,600,000 ms (an hour) a trace may last`]);
  });

  it('refuses to write over the trace it reads, or one output over the other', async () => {
    const dir = tempDir();
    const trace = join(dir, 'in.trace');
    writeFileSync(trace, '1\n2\n');
    const over = await sim('--trace', trace, '--csv', trace);
    expect([over.code, over.stderr.split('\n')[0]]).toEqual([2, `sim: --csv names the file --trace reads (${trace}): give it another`]);
    expect(readFileSync(trace, 'utf8')).toBe('1\n2\n');
    const both = join(dir, 'out.csv');
    const twice = await sim('--trace', trace, '--csv', both, '--summary-csv', both);
    expect([twice.code, twice.stderr.split('\n')[0]]).toEqual([2, `sim: --summary-csv names the file --csv writes (${both}): give it another`]);
  });

  /** A 2-second trace of one packet a millisecond: a contest short enough to sweep in a test. */
  const shortTrace = (dir: string) => {
    const file = join(dir, 'short.trace');
    writeFileSync(file, Array.from({ length: 2000 }, (_, i) => i + 1).join('\n'));
    return file;
  };
  const SWEEP_COLUMNS = ['trace', 'scheme', 'param', 'value', 'throughput_mbps', 'delay95_ms', 'power', 'score', 'frontier'];
  /** The CSV row a printed point should have: its figures as written, and whether it is on the printed frontier. */
  const rowOf = (trace: string, p: SweepPoint, front: SweepPoint[]) => ({
    trace,
    scheme: p.scheme,
    param: p.param,
    value: p.param === '' ? '' : String(p.value),
    throughput_mbps: String(p.throughputMbps),
    delay95_ms: String(p.delay95),
    power: String(p.power),
    score: String(p.score),
    frontier: String(front.some((f) => f.scheme === p.scheme && f.value === p.value)),
  });

  it('--sweep with --csv writes one row per sweep point with the figures it printed', async () => {
    const dir = tempDir();
    const trace = shortTrace(dir);
    const file = join(dir, 'sweep.csv');
    const r = await sim('--trace', trace, '--scheme', 'fixed', '--sweep', 'w=10,20,40', '--csv', file, '--json');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { points: SweepPoint[]; frontier: SweepPoint[] };
    const rows = csvParse(readFileSync(file, 'utf8'));
    expect(rows.columns).toEqual(SWEEP_COLUMNS);
    expect(rows.map((row) => row.value)).toEqual(['10', '20', '40']);
    expect(rows.map((row) => ({ ...row }))).toEqual(out.points.map((p) => rowOf(trace, p, out.frontier)));
  });

  it('--sweep on a bundled trace names it in the CSV and the JSON as it was asked for, as the contest lab’s export does', async () => {
    const file = join(tempDir(), 'sweep.csv');
    const r = await sim('--trace', 'TMobile-LTE-short', '--scheme', 'fixed', '--sweep', 'w=10', '--csv', file, '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).trace).toBe('TMobile-LTE-short');
    expect(csvParse(readFileSync(file, 'utf8')).map((row) => row.trace)).toEqual(['TMobile-LTE-short']);
  });

  it('--sweep of a choice runs each choice named, as the contest lab does, and names it in the text and the CSV', async () => {
    const dir = tempDir();
    const trace = shortTrace(dir);
    const file = join(dir, 'sweep.csv');
    const base = ['--trace', trace, '--scheme', 'aimd', '--sweep', 'decrease=sqrt,multiplicative,sqrt'];
    const r = await sim(...base, '--csv', file, '--json');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { points: SweepPoint[]; frontier: SweepPoint[] };
    expect(out.points.map((p) => [p.choice, p.value])).toEqual([
      ['sqrt', 0],
      ['multiplicative', 1],
    ]);
    const rows = csvParse(readFileSync(file, 'utf8'));
    expect(rows.map((row) => row.value)).toEqual(['sqrt', 'multiplicative']);
    // each point is the run of that choice alone
    const alone = await sim('--trace', trace, '--scheme', 'aimd', '--set', 'decrease=multiplicative', '--json');
    expect(out.points[1].score).toBe((JSON.parse(alone.stdout) as { all: { score: number } }).all.score);
    const text = await sim(...base);
    expect(text.stdout).toMatch(/^decrease=sqrt /m);
    expect(text.stdout).toMatch(/^decrease=multiplicative /m);
  });

  it('--scoreboard with --csv writes one row per built-in window scheme', async () => {
    const dir = tempDir();
    const trace = shortTrace(dir);
    const file = join(dir, 'scoreboard.csv');
    const r = await sim('--trace', trace, '--scoreboard', '--csv', file, '--json');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { points: SweepPoint[]; frontier: SweepPoint[] };
    const rows = csvParse(readFileSync(file, 'utf8'));
    expect(rows.map((row) => row.scheme)).toEqual(contestSchemes().map((s) => s.id));
    expect(rows.map((row) => ({ ...row }))).toEqual(out.points.map((p) => rowOf(trace, p, out.frontier)));
  });

  it('refuses a flag the run would ignore, before running: exit 2, what the flag does and which runs take it, no file', async () => {
    const file = join(tempDir(), 'never.csv');
    const csvRuns = '--scenario contest, --scenario offset-constant, --scenario offset-variable, --scenario shared, --scenario bulk, --scenario matrix --row N, --sweep, --scoreboard';
    const csvDoc = "write the run's event trace CSV; with --sweep or --scoreboard, the points' CSV (one row per run, as the contest lab exports it)";
    const oneRun = '--scenario contest, --scenario offset-constant, --scenario offset-variable, --scenario shared, --scenario bulk, --scenario matrix --row N';
    const cases: [string[], string][] = [
      [['--scenario', 'measurement', '--csv', file], `--csv is for ${csvRuns}, not for --scenario measurement: ${csvDoc}`],
      [['--scenario', 'matrix', '--csv', file], `--csv is for ${csvRuns}, not for --scenario matrix without --row: ${csvDoc}`],
      [['--scheme', 'fixed', '--sweep', 'w=10,20', '--summary-csv', file], `--summary-csv is for ${oneRun}, not for --sweep: write the run's per-interval summary CSV`],
      [['--scoreboard', '--interval', '50'], `--interval is for ${oneRun}, not for --scoreboard: interval of the summary CSV`],
      [
        ['--scenario', 'matrix', '--row', '3', '--loss', '5'],
        "--loss is for --scenario contest, --sweep, --scoreboard, --scenario offset-constant, --scenario offset-variable, --scenario shared, --scenario bulk, --scenario fairness, not for --scenario matrix --row N: a link flag sets the scenario's link",
      ],
      [['--row', '3'], '--row is for --scenario matrix --row N, not for --scenario contest: matrix: run only this row and keep its trace'],
      [['--scenario', 'shared', '--trace', 'TMobile-LTE-short'], `--trace is for --scenario contest, --sweep, --scoreboard, --scenario bulk, not for --scenario shared: ${SIM_TRACE_DOC}`],
      [['--scoreboard', '--sweep', 'w=1,2'], '--sweep and --scoreboard are two different runs of the contest: give one'],
      [['--scheme', 'reno,cubic', '--sweep', 'w=1,2'], '--scheme: --sweep runs one scheme (got reno, cubic)'],
      [['--scenario', 'matrix', '--scheme', 'reno', '--scheme', 'cubic'], '--scheme: --scenario matrix without --row runs one scheme (got reno, cubic)'],
    ];
    for (const [args, message] of cases) {
      const r = await sim(...args);
      expect([r.code, r.stderr, r.stdout], args.join(' ')).toEqual([2, `sim: ${message}\nRun with --help for the options.\n`, '']);
    }
    expect(existsSync(file)).toBe(false);
  });
});
