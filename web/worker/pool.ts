import type { ScenarioSpec } from '../../shared/scenarios/spec.ts';
import { applyDelta } from './seriesDelta.ts';
import type { AnswerTo, RequestKind, RequestOf, RunView, WorkerRequest, WorkerResponse } from './protocol.ts';

type Slot = 'a' | 'b';

/**
 * Two module workers, one per side of the comparison, so A and B compute in parallel and the page's
 * thread only draws. A newer request for a side makes the answer to an older one stale: it is dropped.
 */
export class WorkerPool {
  private readonly workers: Record<Slot, Worker>;
  private nextId = 1;
  private readonly latest: Record<Slot, number> = { a: 0, b: 0 };
  private readonly waiting = new Map<number, { slot: Slot; onView: (v: RunView, final: boolean) => void; resolve: (r: WorkerResponse) => void; shown?: RunView }>();

  constructor() {
    const make = () => new Worker(new URL('./simWorker.ts', import.meta.url), { type: 'module' });
    this.workers = { a: make(), b: make() };
    for (const slot of ['a', 'b'] as const) {
      this.workers[slot].onmessage = (e: MessageEvent<WorkerResponse>) => this.receive(e.data);
      this.workers[slot].onerror = (e) => {
        for (const [id, w] of this.waiting) if (w.slot === slot) w.resolve({ id, kind: 'error', message: e.message || 'the worker failed' });
      };
    }
  }

  private receive(m: WorkerResponse): void {
    const w = this.waiting.get(m.id);
    if (!w) return;
    if (m.kind === 'delta') {
      if (w.shown && m.id === this.latest[w.slot]) this.show(w, { ...w.shown, series: applyDelta(w.shown.series, m.delta), summary: m.summary, wallMs: m.wallMs }, false);
      return;
    }
    if (m.kind === 'view') {
      if (m.id === this.latest[w.slot]) this.show(w, m.view, m.final);
      if (!m.final) return;
    }
    this.waiting.delete(m.id);
    w.resolve(m);
  }

  private show(w: { onView: (v: RunView, final: boolean) => void; shown?: RunView }, view: RunView, final: boolean): void {
    w.shown = view;
    w.onView(view, final);
  }

  /**
   * Sends a request to a side's worker; views for it arrive through onView while it is the latest. Uploads
   * and exports leave the run in progress the latest.
   */
  request<K extends RequestKind>(slot: Slot, req: RequestOf<K> & { kind: K }, onView: (v: RunView, final: boolean) => void = () => {}): Promise<AnswerTo<K>> {
    const id = this.nextId++;
    if (req.kind !== 'upload' && req.kind !== 'export') this.latest[slot] = id;
    return new Promise((resolve) => {
      this.waiting.set(id, { slot, onView, resolve: resolve as (r: WorkerResponse) => void });
      this.workers[slot].postMessage({ ...req, id } as WorkerRequest);
    });
  }

  run(slot: Slot, spec: ScenarioSpec, onView: (v: RunView) => void): Promise<AnswerTo<'run'>> {
    return this.request(slot, { kind: 'run', spec }, onView);
  }

  /** Hands an uploaded trace to both workers; resolves with the first answer (both parse the same text). */
  async upload(name: string, text: string): Promise<AnswerTo<'upload'>> {
    const [a] = await Promise.all([this.request('a', { kind: 'upload', name, text }), this.request('b', { kind: 'upload', name, text })]);
    return a;
  }

  /** A CSV of the side's latest run, made in its worker, where the log is. */
  async exportCsv(slot: Slot, what: 'trace' | 'intervals'): Promise<string> {
    const r = await this.request(slot, { kind: 'export', what });
    if (r.kind === 'error') throw new Error(r.message);
    return r.text;
  }

  cancelLive(slot: Slot): void {
    this.workers[slot].postMessage({ id: 0, kind: 'cancel' } satisfies WorkerRequest);
  }
}
