import { type ScenarioSpec, tracesOf } from '../../shared/scenarios/spec.ts';
import { withWholeDots } from './runView.ts';
import { applyDelta } from './seriesDelta.ts';
import type { AnswerTo, RequestKind, RequestOf, RunView, Slot, WorkerRequest, WorkerResponse } from './protocol.ts';
import { EarlyRuns, type RunHooks } from './earlyRuns.ts';
import { afterHang, type Pace, Watchdog } from './watchdog.ts';
import { networkWorker, userCodeWorker, type WorkerLike } from './sandboxHost.ts';
import simWorkerUrl from './simWorker.ts?worker&url';
import liveControllerUrl from './liveController.ts?worker&url';
import type { ControllerRun } from './liveController.ts';

interface Waiting extends RunHooks {
  slot: Slot;
  /** Sent to the side's networked worker (a live fetch), not to its sandboxed one. */
  networked: boolean;
  req: WorkerRequest;
  /** A live fetch's controller, in the sandbox frame: ended with its request. */
  controller?: WorkerLike;
  onView: (v: RunView, final: boolean) => void;
  resolve: (r: WorkerResponse) => void;
  shown?: RunView;
}

/** Requests about what a side already has: the run in progress stays the latest. */
const ASIDES = new Set<RequestKind>(['upload', 'export', 'dots']);

/** What a side's networked worker does: fetch through the relay (it alone may reach it). */
const NETWORKED = new Set<RequestKind>(['live', 'measure-live', 'cancel']);

/**
 * Two workers, one per side of the comparison, so A and B compute in parallel and the page's thread
 * only draws. They run in the sandbox frame (sandboxHost.ts), which gives the user's code no network:
 * a side's live fetches go to a worker of its own, started when the first is asked for. A newer request
 * for a side makes the answer to an older one stale: it is dropped. A worker whose user code hangs where
 * its loop guard cannot reach is ended and replaced (see watchdog.ts); the page learns which callback hung.
 */
export class WorkerPool {
  private readonly workers = {} as Record<Slot, WorkerLike>;
  /** Sides whose sandboxed worker failed: the next request starts a fresh one. */
  private readonly failed = new Set<Slot>();
  /**
   * Sides whose sandboxed worker has loaded the user's code: a run without it gets a fresh worker, where
   * nothing that code left behind (a built-in it patched) runs.
   */
  private readonly ranCode = new Set<Slot>();
  private readonly networked: Partial<Record<Slot, WorkerLike>> = {};
  /** Which of a side's workers drew its latest run, and so holds it for exports. */
  private readonly drawnBy: Record<Slot, 'sandboxed' | 'networked'> = { a: 'sandboxed', b: 'sandboxed' };
  private nextId = 1;
  private readonly latest: Record<Slot, number> = { a: 0, b: 0 };
  private readonly waiting = new Map<number, Waiting>();
  /** Uploaded traces, handed again to a worker that replaces a hung one. */
  private readonly uploads: RequestOf<'upload'>[] = [];
  private readonly dogs: Record<Slot, Watchdog>;
  private readonly early = new EarlyRuns();
  /** The request each view answered, which names its run to the worker that keeps it. */
  private readonly runOf = new WeakMap<RunView, number>();
  /** Whole dots asked for a view (a zoom's steps and an export ask once). */
  private readonly wholeAsked = new WeakMap<RunView, Promise<RunView | null>>();

  /** `first`: the runs the page will ask for first, whose bundled traces the workers load as they start. */
  constructor(
    first: ScenarioSpec[] = [],
    private readonly spawn: (name: string, traces: readonly string[]) => WorkerLike = (name, traces) => userCodeWorker(simWorkerUrl, name, traces),
  ) {
    this.dogs = { a: new Watchdog(() => this.hung('a')), b: new Watchdog(() => this.hung('b')) };
    const traces = [...new Set(first.flatMap(tracesOf))].filter((n) => !n.startsWith('upload:'));
    this.start('a', traces);
    this.start('b', traces);
  }

  /** A side's worker, handed the bundled traces of the runs the page opens on as it starts (sandboxHost.ts). */
  private start(slot: Slot, traces: string[] = []): void {
    this.failed.delete(slot);
    this.workers[slot] = this.listen(slot, this.spawn(`simulation ${slot}`, traces), false);
    for (const u of this.uploads) this.workers[slot].postMessage({ ...u, id: 0, kind: 'upload' } satisfies WorkerRequest);
  }

  private listen(slot: Slot, w: WorkerLike, networked: boolean): WorkerLike {
    w.onmessage = (e: { data: WorkerResponse }) => this.receive(e.data, slot, networked);
    w.onerror = (e) => {
      if (!networked) this.failed.add(slot);
      for (const [id, x] of this.waiting) if (x.slot === slot && x.networked === networked) this.settle(id, { id, kind: 'error', message: e.message || 'the worker failed' });
    };
    return w;
  }

  /**
   * The worker a request goes to: live fetches (and the exports of their runs) to the networked one. A
   * sandboxed worker that failed (one that never started among them) is replaced by the next request.
   */
  private workerFor(slot: Slot, req: WorkerRequest): WorkerLike {
    const { kind } = req;
    // a live run's view comes whole: only the sandboxed worker is asked for dots
    const networked = NETWORKED.has(kind) || (kind === 'export' && this.drawnBy[slot] === 'networked');
    if (!networked) {
      const code = 'spec' in req && req.spec !== undefined && 'code' in req.spec && req.spec.code !== undefined;
      if (this.failed.has(slot) || (this.ranCode.has(slot) && !code && !ASIDES.has(kind))) this.replace(slot);
      if (code) this.ranCode.add(slot);
      return this.workers[slot];
    }
    this.networked[slot] ??= this.listen(slot, networkWorker(simWorkerUrl, `live ${slot}`), true);
    return this.networked[slot];
  }

  /**
   * A side's sandboxed worker ended and a fresh one in its place: the runs it still owed are superseded (the
   * request that replaced it is newer), and what it owed besides (an upload, an export) is asked of the new one.
   */
  private replace(slot: Slot): void {
    this.workers[slot].terminate();
    this.dogs[slot].stop();
    this.ranCode.delete(slot);
    this.start(slot);
    for (const [id, w] of this.waiting) {
      if (w.slot !== slot || w.networked) continue;
      if (ASIDES.has(w.req.kind)) this.workers[slot].postMessage(w.req);
      else this.settle(id, { id, kind: 'superseded' });
    }
  }

  /** What a worker sent: answers to requests made of it alone (the user's code runs there, and may post anything). */
  private receive(m: WorkerResponse, slot: Slot, networked: boolean): void {
    const w = typeof m?.id === 'number' ? this.waiting.get(m.id) : undefined;
    if (!w || w.slot !== slot || w.networked !== networked) return;
    if (m.kind === 'beat') return this.dogs[w.slot].beat(m.id, m.callback, m.entered);
    if (m.kind === 'checked') {
      w.onChecked?.(m.result);
      if (m.result.ok) return;
    }
    if (m.kind === 'preview') {
      const worker = this.workers[w.slot];
      const goOn = () => worker.postMessage({ id: m.id, kind: 'preview-shown' } satisfies WorkerRequest);
      if (m.id !== this.latest[w.slot] || !w.onPreview) return goOn();
      w.onPreview(m.series);
      // Once the frame with it is drawn: a task after the next animation frame.
      requestAnimationFrame(() => setTimeout(goOn));
      return;
    }
    if (m.kind === 'delta') {
      if (w.shown && m.id === this.latest[w.slot]) this.show(w, { ...w.shown, series: applyDelta(w.shown.series, m.delta), summary: m.summary, wallMs: m.wallMs }, false);
      return;
    }
    if (m.kind === 'view') {
      this.runOf.set(m.view, m.id);
      if (m.id === this.latest[w.slot]) this.show(w, m.view, m.final);
      if (!m.final) return;
      // An older run's whole view: its side is not done, a newer run is under way.
      if (m.id !== this.latest[w.slot]) return this.settle(m.id, { id: m.id, kind: 'superseded' });
    }
    this.settle(m.id, m);
  }

  private settle(id: number, m: WorkerResponse): void {
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    this.dogs[w.slot].done(id);
    w.controller?.terminate();
    w.resolve(m);
  }

  private show(w: { onView: (v: RunView, final: boolean) => void; shown?: RunView }, view: RunView, final: boolean): void {
    w.shown = view;
    w.onView(view, final);
  }

  /**
   * The slot's worker stopped answering inside user code: it is ended, a fresh one takes its place and
   * every request it still owed. The hung run, if still wanted, runs again probing (to name the callback
   * that hangs); hung again while probing, it is answered with that callback's name.
   */
  private hung(slot: Slot): void {
    const dog = this.dogs[slot];
    const stuckId = dog.watched!.id;
    this.workers[slot].terminate();
    this.start(slot);
    const owed = [...this.waiting].filter(([, w]) => w.slot === slot && !w.networked).sort(([a], [b]) => a - b);
    for (const [id, w] of owed) {
      if (id !== stuckId) this.workers[slot].postMessage(w.req);
      else if (id !== this.latest[slot]) this.settle(id, { id, kind: 'superseded' });
      else {
        const next = afterHang(dog);
        if ('message' in next) this.settle(id, { id, kind: 'error', message: next.message });
        else this.workers[slot].postMessage({ ...w.req, probeFrom: next.probeFrom } as WorkerRequest);
      }
    }
  }

  /**
   * Sends a request to a side's worker; views for it arrive through onView while it is the latest. Uploads
   * and exports leave the run in progress the latest.
   */
  request<K extends RequestKind>(slot: Slot, req: RequestOf<K> & { kind: K }, onView: (v: RunView, final: boolean) => void = () => {}, hooks: RunHooks = {}): Promise<AnswerTo<K>> {
    const id = this.nextId++;
    if (!ASIDES.has(req.kind)) this.latest[slot] = id;
    if (req.kind === 'run' || req.kind === 'replay' || req.kind === 'live') this.drawnBy[slot] = req.kind === 'live' ? 'networked' : 'sandboxed';
    const live = req.kind === 'live' ? this.liveController(slot, id) : null;
    const message = { ...req, id, ...(live && { controller: live.port }) } as WorkerRequest;
    const worker = this.workerFor(slot, message);
    return new Promise((resolve) => {
      this.waiting.set(id, { slot, networked: worker !== this.workers[slot], req: message, controller: live?.worker, onView, ...hooks, resolve: resolve as (r: WorkerResponse) => void });
      worker.postMessage(message, live ? [live.port] : []);
    });
  }

  /**
   * A live fetch's controller, which runs the scheme's code (a link's own among them): started in the
   * sandbox frame, with no network, and joined to the side's networked worker, which holds the socket
   * (liveRun.ts), by a port of their own. It fails the request if it cannot start.
   */
  private liveController(slot: Slot, id: number): { worker: WorkerLike; port: MessagePort } {
    const worker = userCodeWorker(liveControllerUrl, `live controller ${slot}`);
    worker.onerror = (e) => this.settle(id, { id, kind: 'error', message: e.message || 'the live controller failed' });
    const { port1, port2 } = new MessageChannel();
    worker.postMessage({ kind: 'run', port: port1 } satisfies ControllerRun, [port1]);
    return { worker, port: port2 };
  }

  /**
   * A run of the spec (carrying the user's code when one of its flows runs it: see withUserCode). With `onChecked`, the
   * code is new: the worker checks it first and tells (a failed check ends the run). With `onPreview`, the
   * series of its first seconds come first (for a side with nothing on screen yet).
   */
  run(slot: Slot, spec: ScenarioSpec, onView: (v: RunView) => void, hooks: RunHooks = {}): Promise<AnswerTo<'run'>> {
    const early = this.early.adopt(slot, spec, onView, hooks);
    if (early) return early;
    return this.request(slot, { kind: 'run', spec, check: hooks.onChecked !== undefined, preview: hooks.onPreview !== undefined }, onView, hooks);
  }

  /**
   * Asks for a side's first run as the page loads, before it can draw anything: the request waits in the
   * worker's port while the worker loads, and the run goes on while the page renders. The page's own first
   * ask for the same run (`run`, with a preview or not alike) takes it over, with what it sent so far.
   */
  runEarly(slot: Slot, spec: ScenarioSpec, preview: boolean): void {
    this.early.start(slot, spec, preview, (onView, hooks) => this.run(slot, spec, onView, hooks));
  }

  /** Hands an uploaded trace to both workers; resolves with the first answer (both parse the same text). */
  async upload(name: string, text: string): Promise<AnswerTo<'upload'>> {
    this.uploads.push({ kind: 'upload', name, text });
    const [a] = await Promise.all([this.request('a', { kind: 'upload', name, text }), this.request('b', { kind: 'upload', name, text })]);
    return a;
  }

  /** A CSV of the side's latest run, made in its worker, where the log is. */
  async exportCsv(slot: Slot, what: 'trace' | 'intervals'): Promise<string> {
    const r = await this.request(slot, { kind: 'export', what });
    if (r.kind === 'error') throw new Error(r.message);
    return r.text;
  }

  /**
   * A side's view with its whole dots in place of the coarse copies it came with, asked of the worker that
   * keeps its run; null when that worker has a newer run (its view is on its way).
   */
  wholeDots(slot: Slot, view: RunView): Promise<RunView | null> {
    const run = this.runOf.get(view);
    if (!view.series.coarseOnly) return Promise.resolve(view);
    if (run === undefined) return Promise.resolve(null);
    let asked = this.wholeAsked.get(view);
    if (!asked) {
      asked = this.askDots(slot, view, run);
      this.wholeAsked.set(view, asked);
    }
    return asked;
  }

  /**
   * A worker that keeps another run has a newer one on its way, unless no run of the side is under way
   * (the worker was replaced after a hang, or the run after this one failed): then it makes this one again.
   */
  private async askDots(slot: Slot, view: RunView, run: number): Promise<RunView | null> {
    const r = await this.request(slot, { kind: 'dots', run });
    if (r.kind === 'dots') return withWholeDots(view, r.dots);
    const spec = view.source === 'simulated' && view.spec && 'workload' in view.spec ? view.spec : null;
    if (r.kind !== 'error' || !spec || [...this.waiting.values()].some((w) => w.slot === slot && !ASIDES.has(w.req.kind))) return null;
    const again = await this.request(slot, { kind: 'dots', run, spec });
    return again.kind === 'dots' ? withWholeDots(view, again.dots) : null;
  }

  /** How the user code of a side's run goes now (Watchdog.pace), or null when none runs. */
  pace(slot: Slot): Pace | null {
    return this.dogs[slot].pace();
  }

  cancelLive(slot: Slot): void {
    this.networked[slot]?.postMessage({ id: 0, kind: 'cancel' } satisfies WorkerRequest);
  }
}

let playground: WorkerPool | null = null;

/**
 * The playground's pool, one per page: started as the page loads (with the runs it opens on), its workers
 * load their code and traces while the page renders.
 */
export const playgroundPool = (first: ScenarioSpec[] = []): WorkerPool => (playground ??= new WorkerPool(first));
