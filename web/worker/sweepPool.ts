import type { Summary } from '../../shared/metrics/summary.ts';
import type { ScenarioSpec } from '../../shared/scenarios/spec.ts';
import type { WorkerRequest, WorkerResponse } from './protocol.ts';
import { withUserCode } from '../../shared/controllers/userScheme.ts';

interface PoolWorker {
  worker: Worker;
  /** Uploaded traces this worker already holds: each text crosses to a worker once. */
  uploads: Set<string>;
}

/**
 * Independent runs (sweep points, matrix rows) spread over a pool of workers, as many as the machine
 * has cores (at least two). The workers live from one sweep to the next; cancelling stops them mid-run
 * (the next sweep starts fresh ones). Results arrive in any order.
 */
export class SweepPool {
  private workers: PoolWorker[] = [];
  private generation = 0;
  /** Set while a sweep runs: ends it as cancelled. */
  private stopRunning: (() => void) | null = null;

  constructor(private readonly size = Math.max(2, Math.min(8, navigator.hardwareConcurrency || 2))) {}

  private ready(count: number, uploads: { name: string; text: string }[]): PoolWorker[] {
    while (this.workers.length < count) this.workers.push({ worker: new Worker(new URL('./simWorker.ts', import.meta.url), { type: 'module' }), uploads: new Set() });
    const workers = this.workers.slice(0, count);
    for (const w of workers) {
      for (const u of uploads) {
        if (w.uploads.has(u.name)) continue;
        w.worker.postMessage({ id: 0, kind: 'upload', ...u } satisfies WorkerRequest);
        w.uploads.add(u.name);
      }
    }
    return workers;
  }

  /** Runs every spec; `onResult` gets each summary with its index as it arrives. Resolves when all are in or cancelled. */
  run(specs: ScenarioSpec[], onResult: (index: number, summary: Summary) => void, onError: (index: number, message: string) => void, uploads: { name: string; text: string }[] = []): Promise<boolean> {
    this.cancel();
    const gen = ++this.generation;
    const workers = this.ready(Math.min(this.size, specs.length), uploads);
    let next = 0;
    let done = 0;
    return new Promise((resolve) => {
      if (specs.length === 0) return resolve(true);
      const feed = ({ worker }: PoolWorker) => {
        if (next >= specs.length) return;
        const index = next++;
        worker.onmessage = (e: MessageEvent<WorkerResponse>) => {
          if (gen !== this.generation) return;
          const m = e.data;
          if (m.kind === 'uploaded') return;
          if (m.kind === 'summary') onResult(index, m.summary);
          else if (m.kind === 'error') onError(index, m.message);
          if (++done === specs.length) {
            this.stopRunning = null;
            resolve(true);
          } else feed({ worker, uploads: new Set() });
        };
        worker.postMessage({ id: index + 1, kind: 'summary', spec: withUserCode(specs[index]) } satisfies WorkerRequest);
      };
      workers.forEach(feed);
      this.stopRunning = () => resolve(false);
    });
  }

  /** Stops a sweep in progress: its workers are ended mid-run. */
  cancel(): void {
    this.generation++;
    const stop = this.stopRunning;
    if (!stop) return;
    this.stopRunning = null;
    for (const w of this.workers) w.worker.terminate();
    this.workers = [];
    stop();
  }

  /** Ends the workers, running or idle (the view that owned the pool is gone). */
  close(): void {
    this.cancel();
    for (const w of this.workers) w.worker.terminate();
    this.workers = [];
  }
}
