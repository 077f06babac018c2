import { parentPort, workerData } from 'node:worker_threads';
import { type CFigures, tsFigures } from './cBaseline.ts';

/**
 * A thread that times one kind of contest run with every metric, of one tree, each time it is asked
 * (bench/model.ts). Each kind of run has a thread of its own, as it has a process of its own in use: the
 * grader's sandbox only grades, the page's worker only keeps logs. In one thread the two kinds train the
 * same functions (a log that keeps rows and one that streams them, samples from a log and from a
 * stream), which no process in use does; the bench prints the grader's run timed that way too.
 */
export type RunKind = 'graded' | 'keeping';

/** A contest run of `kind` from the tree at `root`; asked, its figures under the C program's keys (not timed: the log's digest reads every row). */
async function contestRunner(root: string, kind: RunKind): Promise<(figures: boolean) => CFigures | null> {
  const presets = await import(`${root}/shared/scenarios/presets.ts`);
  const { runScenario: run } = await import(`${root}/shared/scenarios/run.ts`);
  const { summarize: sum } = await import(`${root}/shared/metrics/summary.ts`);
  const { loadTrace: load } = await import(`${root}/server/traces.ts`);
  const spec = presets.contest('Verizon-LTE-short', [presets.flow('fixed', { w: 50 })]);
  // as the page runs it: the log kept for the charts, its columns given back once the next run is drawn
  const keeping = (figures: boolean) => {
    const r = run(spec, load);
    const summary = sum(r);
    const out = figures ? tsFigures(summary, r.log) : null;
    r.log.giveBack?.();
    return out;
  };
  if (kind === 'keeping') return keeping;
  // as the grader runs it: no log, each row to the figures' samples as it happens (a tree without that path: a run and its summary)
  const graded = await import(`${root}/shared/scenarios/measureRun.ts`).catch(() => null);
  const summary = graded ? () => graded.summaryOfRun(spec, load) : () => sum(run(spec, load));
  return (figures: boolean) => {
    const s = summary();
    return figures ? tsFigures(s) : null;
  };
}

const run = await contestRunner(workerData.root, workerData.kind ?? 'graded');
parentPort!.on('message', (ask: 'run' | 'figures') => {
  if (ask === 'figures') return parentPort!.postMessage(run(true));
  // one thread runs at a time: the process's CPU time is this run's
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  run(false);
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  parentPort!.postMessage({ wall, cpu: (c.user + c.system) / 1000 });
});
parentPort!.postMessage('ready');
