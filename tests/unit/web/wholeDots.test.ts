import { describe, expect, it } from 'vitest';
import { DOT_SERIES, type DotSeries, runSeries, seriesBuffers } from '../../../shared/metrics/series.ts';
import { summarize } from '../../../shared/metrics/summary.ts';
import { coarseDots } from '../../../shared/metrics/thin.ts';
import { contest, flow } from '../../../shared/scenarios/presets.ts';
import { runScenario } from '../../../shared/scenarios/run.ts';
import { loadTrace } from '../../../server/traces.ts';
import { putWholeDots } from '../../../web/app/wholeDots.ts';
import { WorkerPool } from '../../../web/worker/pool.ts';
import type { RunView } from '../../../web/worker/protocol.ts';
import { DOT_COLUMNS, DOT_ROWS, dotBuffers, handOverDots, viewOf, wholeDotsOf, withWholeDots } from '../../../web/worker/runView.ts';
import { fakeWorkers } from '../../helpers/fakeWorkers.ts';

const spec = contest('Verizon-LTE-short', [flow('aimd')]);
const run = runScenario(spec, loadTrace);
const source = { spec, log: run.log, endMs: run.endMs, trace: run.trace, summary: summarize(run), live: null, wallMs: 1 };
const whole = runSeries(run.log, run.endMs, run.trace, false);
/** A view as a worker sends it, with a coarse copy of its sends. */
const coarseView = (wallMs: number) => ({ wallMs, source: 'simulated', spec, series: { coarseOnly: true, sends: Float64Array.of(0, 1) } }) as unknown as RunView;

/** A pool whose side `slot` shows a run's coarse view (`wallMs` tells it apart), and that side's fake worker. */
function shownRun(slot: 'a' | 'b', wallMs: number) {
  const { made, spawn } = fakeWorkers();
  const pool = new WorkerPool([], spawn);
  const worker = made[slot === 'a' ? 0 : 1];
  const shown: RunView[] = [];
  void pool.run(slot, spec, (v) => shown.push(v));
  const runId = worker.posted[0].id;
  worker.onmessage!({ data: { id: runId, kind: 'view', view: coarseView(wallMs), final: true } });
  return { made, pool, worker, shown, runId };
}

describe('a run’s view, made in its worker', () => {
  it('carries the coarse copies of the dots series in their place, and leaves the whole ones behind', () => {
    const { view, transfer, whole: left } = viewOf({ ...source, source: 'simulated' });
    expect(view.series.coarseOnly).toBe(true);
    // a 140 s contest run: sends and ACKs climb, several to a cell; the queueing delays scatter, and go whole
    expect(Object.keys(left).sort()).toEqual(['acks', 'sends']);
    for (const k of ['sends', 'acks'] as DotSeries[]) {
      expect(left[k]).toEqual(whole[k]);
      expect(view.series[k]).toEqual(coarseDots(whole[k], 0, run.endMs, DOT_COLUMNS, DOT_ROWS)!.data);
      expect(view.series[k]).toBe(view.series.coarse![k]!.data);
      expect(view.series[k].length).toBeLessThan(whole[k].length / 3);
    }
    expect(view.series.queueDelay).toEqual(whole.queueDelay);
    // each buffer once, or the transfer fails
    expect(new Set(transfer).size).toBe(transfer.length);
    expect(transfer.length).toBe(seriesBuffers(view.series).length);
  });

  it('with its whole dots back, holds the series the run has', () => {
    const { view, whole: left } = viewOf({ ...source, source: 'imported' });
    const back = withWholeDots(view, left);
    expect(back.series.coarseOnly).toBeUndefined();
    for (const k of ['sends', 'acks'] as DotSeries[]) expect(back.series[k]).toEqual(whole[k]);
    expect(back.series.coarse).toBe(view.series.coarse);
  });

  it('of a live run, carries its dots whole: they grow by deltas', () => {
    const { view, whole: left } = viewOf({ ...source, source: 'live' });
    expect(view.series.coarseOnly).toBeUndefined();
    expect(left).toEqual({});
    expect(view.series.sends).toEqual(whole.sends);
  });
});

describe('the whole dots a worker keeps', () => {
  it('go once, to an ask that names their run', () => {
    const sends = Float64Array.of(0, 1);
    const kept = { id: 3, whole: { sends } };
    expect(handOverDots(kept, 2)).toBeNull();
    expect(handOverDots(null, 3)).toBeNull();
    expect(handOverDots(kept, 3)).toEqual({ sends });
    expect(handOverDots(kept, 3)).toBeNull();
  });

  it('are made again whole from a run: every dots series, each buffer once', () => {
    const dots = wholeDotsOf(run.log, run.endMs, run.trace, spec);
    expect(Object.keys(dots).sort()).toEqual([...DOT_SERIES].sort());
    expect(dots.sends).toEqual(whole.sends);
    expect(dotBuffers(dots).length).toBe(DOT_SERIES.length);
  });
});

describe('the whole dots of a shown run, asked of its worker', () => {
  it("name the shown view's run, are asked once for it, and come back in the view's place", async () => {
    const { pool, worker: a, shown, runId } = shownRun('a', 3);
    const asked = [pool.wholeDots('a', shown[0]), pool.wholeDots('a', shown[0])];
    const dotsAsks = a.posted.filter((m) => m.kind === 'dots');
    expect(dotsAsks).toEqual([{ id: dotsAsks[0].id, kind: 'dots', run: runId }]);
    const sends = Float64Array.of(0, 1, 1, 2);
    a.onmessage!({ data: { id: dotsAsks[0].id, kind: 'dots', dots: { sends } } });
    const [first, second] = await Promise.all(asked);
    expect(first!.series.sends).toBe(sends);
    expect(first!.series.coarseOnly).toBeUndefined();
    expect(first!.wallMs).toBe(3);
    expect(second).toBe(first);
  });

  it('leave the run under way the latest, and are none when the worker keeps a newer run', async () => {
    const { pool, worker: a, shown } = shownRun('a', 1);
    const next = pool.run('a', spec, (v) => shown.push(v));
    const asked = pool.wholeDots('a', shown[0]);
    const ask = a.posted.find((m) => m.kind === 'dots')!;
    a.onmessage!({ data: { id: ask.id, kind: 'error', message: 'that run is no longer kept: a newer one replaced it' } });
    expect(await asked).toBeNull();
    // the newer run is on its way: this one is not made again
    expect(a.posted.filter((m) => m.kind === 'dots').length).toBe(1);
    a.onmessage!({ data: { id: a.posted[1].id, kind: 'view', view: coarseView(2), final: true } });
    expect(await next).toMatchObject({ kind: 'view' });
    expect(shown.map((v) => v.wallMs)).toEqual([1, 2]);
  });

  it('are made again from its spec when its worker keeps it no more and no run of the side is under way', async () => {
    const { pool, worker: a, shown, runId } = shownRun('a', 4);
    const asked = pool.wholeDots('a', shown[0]);
    const first = a.posted.find((m) => m.kind === 'dots')!;
    expect(first).toEqual({ id: first.id, kind: 'dots', run: runId });
    // the worker was replaced after a hang, say, and keeps nothing
    a.onmessage!({ data: { id: first.id, kind: 'error', message: 'that run is no longer kept: a newer one replaced it' } });
    await expect.poll(() => a.posted.filter((m) => m.kind === 'dots').length).toBe(2);
    const again = a.posted.filter((m) => m.kind === 'dots')[1];
    expect(again).toEqual({ id: again.id, kind: 'dots', run: runId, spec });
    const sends = Float64Array.of(0, 1, 1, 2);
    a.onmessage!({ data: { id: again.id, kind: 'dots', dots: { sends } } });
    expect((await asked)!.series.sends).toBe(sends);
  });

  it('of a view that came whole, are that view, asked of no one', async () => {
    const { made, spawn } = fakeWorkers();
    const pool = new WorkerPool([], spawn);
    const view = { wallMs: 1, series: {} } as RunView;
    expect(await pool.wholeDots('a', view)).toBe(view);
    expect(made[0].posted).toEqual([]);
  });
});

describe('a zoomed run’s whole dots, put in place of its view', () => {
  it('come from its side’s worker, in place of the view they belong to and of no newer one', async () => {
    const { made, pool, worker: b, shown } = shownRun('b', 1);
    const view = shown[0];
    const updates: ((now: RunView | null) => RunView | null)[] = [];
    const put = putWholeDots(pool, 'b', view, (u) => updates.push(u));
    const ask = b.posted.find((m) => m.kind === 'dots')!;
    expect(made[0].posted).toEqual([]);
    const sends = Float64Array.of(0, 1, 1, 2);
    b.onmessage!({ data: { id: ask.id, kind: 'dots', dots: { sends } } });
    await put;
    expect(updates.length).toBe(1);
    expect(updates[0](view)!.series.sends).toBe(sends);
    const newer = coarseView(1);
    expect(updates[0](newer)).toBe(newer);
  });

  it('asks nothing for a view that came whole, or before its worker is there', async () => {
    const { made, spawn } = fakeWorkers();
    const pool = new WorkerPool([], spawn);
    const updates: unknown[] = [];
    await putWholeDots(pool, 'a', { wallMs: 1, series: {} } as RunView, (u) => updates.push(u));
    await putWholeDots(null, 'a', coarseView(1), (u) => updates.push(u));
    expect(made[0].posted).toEqual([]);
    expect(updates).toEqual([]);
  });
});
