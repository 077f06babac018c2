import { parentPort, workerData } from 'node:worker_threads';

/**
 * A thread that times one tree's contest run with every metric each time it is asked (bench/model.ts's
 * `againstBase`): each tree in a thread of its own loads its own modules, so neither runs in the module
 * graph the bench itself has loaded and warmed (which timed about 7% slower for the same code).
 */

/** One contest run with every metric, from the tree at `root`. */
async function contestRunner(root: string): Promise<() => void> {
  const presets = await import(`${root}/shared/scenarios/presets.ts`);
  const { runScenario: run } = await import(`${root}/shared/scenarios/run.ts`);
  const { summarize: sum } = await import(`${root}/shared/metrics/summary.ts`);
  const { loadTrace: load } = await import(`${root}/server/traces.ts`);
  const spec = presets.contest('Verizon-LTE-short', [presets.flow('fixed', { w: 50 })]);
  // a tree with the grader's path times that path; an older one, a run and its summary
  const graded = await import(`${root}/shared/scenarios/measureRun.ts`).catch(() => null);
  return graded ? () => graded.summaryOfRun(spec, load) : () => sum(run(spec, load));
}

const run = await contestRunner(workerData.root);
parentPort!.on('message', () => {
  // one thread runs at a time: the process's CPU time is this run's
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  run();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  parentPort!.postMessage({ wall, cpu: (c.user + c.system) / 1000 });
});
parentPort!.postMessage('ready');
