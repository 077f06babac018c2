import type { Summary } from '../../shared/metrics/summary.ts';
import type { ScenarioSpec } from '../../shared/scenarios/spec.ts';
import type { WorkerRequest, WorkerResponse } from './protocol.ts';
import { afterHang, Watchdog } from './watchdog.ts';
import { userCodeWorker, type WorkerLike } from './sandboxHost.ts';
import simWorkerUrl from './simWorker.ts?worker&url';

type Upload = { name: string; text: string };

interface PoolWorker {
  worker: WorkerLike;
  /** Uploaded traces this worker already holds: each text crosses to a worker once. */
  uploads: Set<string>;
  /** Ends the worker when its user code stops beating (web/worker/watchdog.ts). */
  dog: Watchdog;
  /** The spec it runs now (its index), or -1 when idle. */
  index: number;
  /**
   * The user's code this worker has loaded (a spec's `code`), or null. Such a worker runs no spec of
   * other code, or of none: what that code patched in the worker would skew those runs' built-ins.
   */
  code: string | null;
}

/** The sweep under way: its specs, how far it got, and where its answers go. */
interface Sweep {
  specs: ScenarioSpec[];
  uploads: Upload[];
  /** Indices of the specs not yet sent, in order. */
  waiting: number[];
  done: number;
  onResult(index: number, summary: Summary): void;
  onError(index: number, message: string): void;
  finish(completed: boolean): void;
}

const simWorker = () => userCodeWorker(simWorkerUrl);

/**
 * Independent runs (sweep points, matrix rows) spread over a pool of workers, as many as the machine
 * has cores (at least two). The workers live from one sweep to the next; cancelling stops them mid-run
 * (the next sweep starts fresh ones). Results arrive in any order. A worker whose user code hangs where
 * its loop guard cannot reach is replaced as the single runs' are (web/worker/pool.ts): its point runs
 * again probing, and fails naming the callback that hung; the sweep goes on with the next points.
 */
export class SweepPool {
  private workers: PoolWorker[] = [];
  private sweep: Sweep | null = null;

  constructor(
    private readonly size = Math.max(2, Math.min(8, navigator.hardwareConcurrency || 2)),
    private readonly spawn: () => WorkerLike = simWorker,
  ) {}

  private start(): PoolWorker {
    const w = { uploads: new Set(), index: -1, code: null } as unknown as PoolWorker;
    w.dog = new Watchdog(() => this.hung(w));
    this.fresh(w);
    return w;
  }

  /** A fresh worker in `w`'s place (the one there is ended), holding no uploads and no code yet. */
  private fresh(w: PoolWorker): void {
    w.worker?.terminate();
    w.worker = this.spawn();
    w.worker.onmessage = (e: { data: WorkerResponse }) => this.receive(w, e.data);
    w.worker.onerror = (e) => {
      e.preventDefault();
      this.crashed(w, e.message);
    };
    w.uploads.clear();
    w.code = null;
  }

  /** Hands the worker the sweep's uploaded traces it does not hold yet. */
  private give(w: PoolWorker, uploads: Upload[]): void {
    for (const u of uploads) {
      if (w.uploads.has(u.name)) continue;
      w.worker.postMessage({ id: 0, kind: 'upload', ...u } satisfies WorkerRequest);
      w.uploads.add(u.name);
    }
  }

  /** The worker runs spec `index`, given first the sweep's uploads it does not hold. */
  private send(w: PoolWorker, index: number, probeFrom?: number): void {
    const spec = this.sweep!.specs[index];
    this.give(w, this.sweep!.uploads);
    w.index = index;
    w.code ??= spec.code ?? null;
    w.worker.postMessage({ id: index + 1, kind: 'summary', spec, probeFrom } satisfies WorkerRequest);
  }

  /**
   * The worker takes the sweep's next spec it may run (any, until it has loaded someone's code). A worker
   * whose code rules out every spec left is ended, and a fresh one takes the next.
   */
  private feed(w: PoolWorker): void {
    w.index = -1;
    const s = this.sweep;
    if (!s || s.waiting.length === 0) return;
    let k = s.waiting.findIndex((i) => w.code === null || (s.specs[i].code ?? null) === w.code);
    if (k < 0) {
      w.dog.stop();
      this.fresh(w);
      k = 0;
    }
    this.send(w, s.waiting.splice(k, 1)[0]);
  }

  private receive(w: PoolWorker, m: WorkerResponse): void {
    const s = this.sweep;
    if (!s || m.id !== w.index + 1) return;
    if (m.kind === 'beat') return w.dog.beat(m.id, m.callback, m.entered);
    w.dog.done(m.id);
    if (m.kind === 'summary') s.onResult(w.index, m.summary);
    else if (m.kind === 'error') s.onError(w.index, m.message);
    else return;
    this.settled(w);
  }

  /** The worker's spec is answered: the sweep ends with its last one, else the worker takes the next. */
  private settled(w: PoolWorker): void {
    const s = this.sweep!;
    if (++s.done === s.specs.length) {
      w.index = -1;
      this.sweep = null;
      s.finish(true);
    } else this.feed(w);
  }

  /**
   * The worker failed outside any run's answer (its script did not load, or something it ran threw where
   * nothing caught it): its point is answered with the failure and a fresh worker goes on with the sweep,
   * which would otherwise wait for that point for ever. Between sweeps it is only ended: the next sweep
   * starts what it needs (a worker that cannot start at all would otherwise be started again for ever).
   */
  private crashed(w: PoolWorker, message: string): void {
    const s = this.sweep;
    w.dog.stop();
    if (!s) {
      w.worker.terminate();
      this.workers = this.workers.filter((x) => x !== w);
      return;
    }
    this.fresh(w);
    if (w.index < 0) return this.feed(w);
    s.onError(w.index, `the worker failed: ${message || 'it gave no reason'}`);
    this.settled(w);
  }

  /** The worker's user code stopped beating: a fresh worker takes its place and the point runs again, probing, or fails. */
  private hung(w: PoolWorker): void {
    const s = this.sweep!;
    this.fresh(w);
    const next = afterHang(w.dog);
    if ('probeFrom' in next) return this.send(w, w.index, next.probeFrom);
    w.dog.done(next.id);
    s.onError(w.index, next.message);
    this.settled(w);
  }

  /** Runs every spec; `onResult` gets each summary with its index as it arrives. Resolves when all are in or cancelled. */
  run(specs: ScenarioSpec[], onResult: (index: number, summary: Summary) => void, onError: (index: number, message: string) => void, uploads: Upload[] = []): Promise<boolean> {
    this.cancel();
    if (specs.length === 0) return Promise.resolve(true);
    return new Promise((finish) => {
      this.sweep = { specs, uploads, waiting: [...specs.keys()], done: 0, onResult, onError, finish };
      while (this.workers.length < Math.min(this.size, specs.length)) this.workers.push(this.start());
      for (const w of this.workers.slice(0, specs.length)) this.feed(w);
    });
  }

  /** Stops a sweep in progress: its workers are ended mid-run. */
  cancel(): void {
    const s = this.sweep;
    if (!s) return;
    this.sweep = null;
    this.close();
    s.finish(false);
  }

  /** Ends the workers, running or idle (the view that owned the pool is gone). */
  close(): void {
    this.cancel();
    for (const w of this.workers) {
      w.dog.stop();
      w.worker.terminate();
    }
    this.workers = [];
  }
}
