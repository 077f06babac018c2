import { describe, expect, it } from 'vitest';
import { contest, flow } from '../../../shared/scenarios/presets.ts';
import { putWholeDots } from '../../../web/labs/useLabRun.ts';
import { WorkerPool } from '../../../web/worker/pool.ts';
import type { RunView } from '../../../web/worker/protocol.ts';
import { fakeWorkers } from '../../helpers/fakeWorkers.ts';

const coarseView = () => ({ wallMs: 1, series: { coarseOnly: true, sends: Float64Array.of(0, 1) } }) as unknown as RunView;

describe('a lab’s zoomed run', () => {
  it('gets its whole dots from its worker, in place of the view they belong to and of no newer one', async () => {
    const { made, spawn } = fakeWorkers();
    const pool = new WorkerPool([], spawn);
    const a = made[0];
    let shown: RunView | null = null;
    void pool.run('a', contest('Verizon-LTE-short', [flow('aimd')]), (v) => (shown = v));
    a.onmessage!({ data: { id: a.posted[0].id, kind: 'view', view: coarseView(), final: true } });
    const view = shown!;
    const updates: ((now: RunView | null) => RunView | null)[] = [];
    const put = putWholeDots(pool, view, (u) => updates.push(u));
    const ask = a.posted.find((m) => m.kind === 'dots')!;
    const sends = Float64Array.of(0, 1, 1, 2);
    a.onmessage!({ data: { id: ask.id, kind: 'dots', dots: { sends } } });
    await put;
    expect(updates.length).toBe(1);
    expect(updates[0](view)!.series.sends).toBe(sends);
    const newer = coarseView();
    expect(updates[0](newer)).toBe(newer);
  });

  it('asks nothing for a view that came whole, or before its worker is there', async () => {
    const { made, spawn } = fakeWorkers();
    const pool = new WorkerPool([], spawn);
    const updates: unknown[] = [];
    await putWholeDots(pool, { wallMs: 1, series: {} } as RunView, (u) => updates.push(u));
    await putWholeDots(null, coarseView(), (u) => updates.push(u));
    expect(made[0].posted).toEqual([]);
    expect(updates).toEqual([]);
  });
});
