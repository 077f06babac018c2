import { Worker } from 'node:worker_threads';
import type { ParamValues } from '../../../shared/controllers/types.ts';
import type { Evaluate } from '../../../shared/stress/search.ts';
import type { Segment } from '../../../shared/stress/segments.ts';

const BOOT = new URL('../../threadBoot.mjs', import.meta.url);
const MODULE = new URL('./worker.ts', import.meta.url).href;

/** What every worker runs: the controller (a built-in's id, or the user's file), its parameters and the seed. */
export interface Runner {
  scheme: string;
  params: ParamValues;
  seed: number;
}

export type Reply = { id: number; score: number; omniscientScore: number } | { id: number; error: string };

/**
 * Worker threads that score segment traces, one batch spread over all of them. A batch's results come back
 * in its order whichever worker ran which trace, so the search is the same for any number of workers.
 */
export class ScoringPool {
  private readonly workers: Worker[];
  private readonly waiting = new Map<number, (r: Reply) => void>();
  private nextId = 0;

  constructor(runner: Runner, threads: number) {
    this.workers = Array.from({ length: threads }, () => {
      const w = new Worker(BOOT, { workerData: { module: MODULE, runner } });
      w.on('message', (r: Reply) => {
        this.waiting.get(r.id)?.(r);
        this.waiting.delete(r.id);
      });
      w.on('error', (e) => this.failAll(e.message));
      return w;
    });
  }

  readonly evaluate: Evaluate = async (batch) => {
    const replies = await Promise.all(batch.map((segments, i) => this.run(this.workers[i % this.workers.length], segments)));
    return replies.map((r) => {
      if ('error' in r) throw new Error(r.error);
      return { score: r.score, omniscientScore: r.omniscientScore };
    });
  };

  private run(worker: Worker, segments: Segment[]): Promise<Reply> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      worker.postMessage({ id, segments });
    });
  }

  private failAll(error: string): void {
    for (const [id, resolve] of this.waiting) resolve({ id, error });
    this.waiting.clear();
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
