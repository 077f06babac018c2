import type { Summary } from '../../shared/metrics/summary.ts';
import type { ScenarioSpec } from '../../shared/scenarios/spec.ts';
import type { WorkerRequest, WorkerResponse } from './protocol.ts';

/**
 * Independent runs (sweep points, matrix rows) spread over a pool of workers, as many as the machine
 * has cores (at least two). Results arrive in any order; cancelling stops the workers mid-run.
 */
export class SweepPool {
  private workers: Worker[] = [];
  private generation = 0;

  constructor(private readonly size = Math.max(2, Math.min(8, navigator.hardwareConcurrency || 2))) {}

  /** Runs every spec; `onResult` gets each summary with its index as it arrives. Resolves when all are in or cancelled. */
  run(
    specs: ScenarioSpec[],
    onResult: (index: number, summary: Summary) => void,
    onError: (index: number, message: string) => void,
    uploads: { name: string; text: string }[] = [],
  ): Promise<boolean> {
    this.cancel();
    const gen = ++this.generation;
    this.workers = Array.from({ length: Math.min(this.size, specs.length) }, () => new Worker(new URL('./simWorker.ts', import.meta.url), { type: 'module' }));
    let next = 0;
    let done = 0;
    return new Promise((resolve) => {
      if (specs.length === 0) return resolve(true);
      const feed = (w: Worker) => {
        if (next >= specs.length) return;
        const index = next++;
        w.onmessage = (e: MessageEvent<WorkerResponse>) => {
          if (gen !== this.generation) return;
          const m = e.data;
          if (m.kind === 'uploaded') return;
          if (m.kind === 'summary') onResult(index, m.summary);
          else if (m.kind === 'error') onError(index, m.message);
          if (++done === specs.length) resolve(true);
          else feed(w);
        };
        w.postMessage({ id: index + 1, kind: 'summary', spec: specs[index] } satisfies WorkerRequest);
      };
      for (const w of this.workers) for (const u of uploads) w.postMessage({ id: 0, kind: 'upload', ...u } satisfies WorkerRequest);
      this.workers.forEach(feed);
      this.onCancel = () => resolve(false);
    });
  }

  private onCancel: () => void = () => {};

  cancel(): void {
    this.generation++;
    for (const w of this.workers) w.terminate();
    this.workers = [];
    this.onCancel();
    this.onCancel = () => {};
  }
}
