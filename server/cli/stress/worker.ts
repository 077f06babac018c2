import { parentPort, workerData } from 'node:worker_threads';
import { flow } from '../../../shared/scenarios/presets.ts';
import { scoreSegments } from '../../../shared/stress/score.ts';
import type { Segment } from '../../../shared/stress/segments.ts';
import { loadSchemeFiles } from '../schemeFlags.ts';
import type { Reply, Runner } from './pool.ts';

/** A scoring thread: loads the controller once (the user's file with the user's own rights), then scores what it is sent. */
const runner = (workerData as { runner: Runner }).runner;
const {
  ids: [scheme],
  schemes,
} = await loadSchemeFiles([runner.scheme]);
const f = flow(scheme, runner.params);
parentPort!.on('message', ({ id, segments }: { id: number; segments: Segment[] }) => {
  let reply: Reply;
  try {
    reply = { id, ...scoreSegments(segments, f, runner.seed, undefined, schemes) };
  } catch (e) {
    reply = { id, error: (e as Error).message };
  }
  parentPort!.postMessage(reply);
});
