import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { BYTES_PER_EVENT } from '../shared/log/eventLog.ts';
import { contest, flow } from '../shared/scenarios/presets.ts';
import { summaryOfRun } from '../shared/scenarios/measureRun.ts';
import { runScenario } from '../shared/scenarios/run.ts';
import { summarize } from '../shared/metrics/summary.ts';
import { loadTrace } from '../server/traces.ts';
import { type CFigures, disagreements, runCBaseline } from './cBaseline.ts';
import type { RunKind } from './modelTurn.ts';

/** This tree's root. */
const HERE = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** The median and the fastest of timed runs (on a shared machine the median moves with the load; the minimum much less). */
const spread = (times: number[]) => ({ ms: median(times), min: Math.min(...times) });

/** Wall time of one run once warm: the median of `runs` after `warmup` untimed runs, and the fastest run. */
function time<T>(make: () => T, warmup = 12, runs = 41): { ms: number; min: number; result: T } {
  let result = make();
  for (let i = 1; i < warmup; i++) make();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    result = make();
    times.push(performance.now() - t0);
  }
  return { ...spread(times), result };
}

export async function benchModel(): Promise<Record<string, string>> {
  const one = contest('Verizon-LTE-short', [flow('fixed', { w: 50 })]);
  const eight = contest(
    'Verizon-LTE-short',
    Array.from({ length: 8 }, () => flow('fixed', { w: 50 })),
  );
  for (const name of ['Verizon-LTE-short.down', 'Verizon-LTE-short.up']) loadTrace(name);
  // each kind of run in a thread of its own, as each has a process of its own in use (bench/modelTurn.ts)
  const keeping = await inThread('keeping');
  const graded = await inThread('graded');
  // right after the TypeScript runs, so that both meet the same load
  const c = runCBaseline(41);
  const plain = runCBaseline(41, true);
  const a = time(() => runScenario(one, loadTrace));
  // the grader's run again, in this thread after runs that keep a log, both kinds training the same functions
  time(() => summarize(runScenario(one, loadTrace)));
  const mixed = time(() => summaryOfRun(one, loadTrace));
  const b = time(() => runScenario(eight, loadTrace), 4, 15);
  const events = a.result.log.length;
  const base = process.env.BENCH_BASE;
  return {
    ...(base ? await againstBase(base) : {}),
    'contest, 1 flow (fixed w=50), simulate': `${a.ms.toFixed(1)} ms (${(140_000 / a.ms).toFixed(0)}× real time; fastest ${a.min.toFixed(1)} ms)`,
    ...againstC(c, keeping, keeping.figures, 'keeping the log'),
    ...againstC(plain, graded, graded.figures, 'plain loop (no log)'),
    'plain loop in one thread with runs that keep a log': `${mixed.ms.toFixed(1)} ms (fastest ${mixed.min.toFixed(1)} ms)${'missing' in plain ? '' : `, ${(mixed.min / plain.fastestMs).toFixed(2)}× the C plain loop's fastest`}`,
    'contest, 1 flow, events': `${events} (${(((events / a.ms) * 1000) / 1e6).toFixed(1)} M events/s)`,
    'contest, 8 flows on one bottleneck': `${b.ms.toFixed(1)} ms (${(b.ms / a.ms).toFixed(2)}× the one-flow time, ${b.result.log.length} events)`,
    'event log, bytes per event': `${BYTES_PER_EVENT} stored; ${(a.result.log.allocatedBytes / events).toFixed(1)} allocated with growth slack`,
  };
}

/** Wall time of one run of `kind` once warm, in a thread of its own (as `time` takes it), and the run's figures. */
async function inThread(kind: RunKind, warmup = 12, runs = 41): Promise<{ ms: number; min: number; figures: CFigures }> {
  const turn = await runnerThread(HERE, kind);
  try {
    const times: number[] = [];
    for (let i = 0; i < warmup + runs; i++) {
      const t = await turn.run();
      if (i >= warmup) times.push(t.wall);
    }
    return { ...spread(times), figures: await turn.figures() };
  } finally {
    await turn.end();
  }
}

/**
 * A TypeScript run with every metric and the C program's run of the same kind (`how` both run): their
 * times, the ratio, and whether the two agree on every figure (loudly when not), the log's digest too
 * when both kept one.
 */
function againstC(c: ReturnType<typeof runCBaseline>, ts: { ms: number; min: number }, figures: CFigures, how: string): Record<string, string> {
  const what = `C ${how}`;
  if ('missing' in c) return { [what]: `not measured: ${c.missing}` };
  const wrong = disagreements(figures, c);
  if (wrong.length > 0) {
    process.exitCode = 1;
    console.error(`!! ${what.toUpperCase()} DISAGREES WITH THE MODEL: ${wrong.join('; ')}`);
  }
  const checked = 'logDigest' in figures ? "the log's digest, " : '';
  return {
    [`contest, 1 flow, simulate + all metrics, ${how}`]: `${ts.ms.toFixed(1)} ms (fastest ${ts.min.toFixed(1)} ms)`,
    [`${what} (gcc -O2), simulate + all metrics`]: `${c.medianMs.toFixed(1)} ms (fastest ${c.fastestMs.toFixed(1)} ms)`,
    [`TypeScript ÷ ${what}`]: `${(ts.min / c.fastestMs).toFixed(2)} fastest, ${(ts.ms / c.medianMs).toFixed(2)} median`,
    [`${what} agrees with the TypeScript run`]: wrong.length === 0 ? `yes: ${checked}${c.events} events and every metric` : `!! NO: ${wrong.join('; ')}`,
  };
}

/** A thread timing the contest run of `kind` of the tree at `root`, one run per ask. */
async function runnerThread(root: string, kind: RunKind = 'graded'): Promise<{ run(): Promise<{ wall: number; cpu: number }>; figures(): Promise<CFigures>; end(): Promise<number> }> {
  const worker = new Worker(new URL('../server/threadBoot.mjs', import.meta.url), { workerData: { module: new URL('./modelTurn.ts', import.meta.url).href, root, kind } });
  const ask = <T>(what: 'run' | 'figures') =>
    new Promise<T>((answer) => {
      worker.once('message', answer);
      worker.postMessage(what);
    });
  await new Promise((ready, failed) => {
    worker.once('message', ready);
    worker.once('error', failed);
  });
  return { run: () => ask('run'), figures: () => ask('figures'), end: () => worker.terminate() };
}

/**
 * With BENCH_BASE=<another checkout>, that tree's contest run with every metric and this one's, each in a
 * thread of its own (bench/modelTurn.ts), taken in turns, each first in turn, so that both meet the same
 * load on a shared machine. Besides wall time, the
 * process's CPU time per run: on a machine others load, a run waits for a core more or less at random,
 * and CPU time leaves that wait out.
 */
async function againstBase(root: string): Promise<Record<string, string>> {
  const turns = await Promise.all([root.replace(/\/$/, ''), HERE].map((r) => runnerThread(r)));
  const wall: number[][] = [[], []];
  const cpu: number[][] = [[], []];
  try {
    for (let i = 0; i < 72; i++) {
      // each first in turn: a run pays for some of the garbage the run before it left
      for (const k of i % 2 ? [1, 0] : [0, 1]) {
        const t = await turns[k].run();
        if (i < 12) continue;
        wall[k].push(t.wall);
        cpu[k].push(t.cpu);
      }
    }
  } finally {
    await Promise.all(turns.map((t) => t.end()));
  }
  const ratio = (times: number[][]) => median(times[1].map((t, i) => t / times[0][i])).toFixed(2);
  return {
    [`contest + all metrics, ${root} vs this tree, in turns`]: `${median(wall[0]).toFixed(1)} ms vs ${median(wall[1]).toFixed(1)} ms (fastest ${Math.min(...wall[0]).toFixed(1)} vs ${Math.min(...wall[1]).toFixed(1)}); this ÷ that, median of pairs ${ratio(wall)}`,
    'the same in CPU time (ms of the process per run)': `${median(cpu[0]).toFixed(1)} vs ${median(cpu[1]).toFixed(1)}; this ÷ that, median of pairs ${ratio(cpu)}`,
  };
}
