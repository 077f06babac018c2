import { describe, expect, it } from 'vitest';
import { contest, flow } from '../../../shared/scenarios/presets.ts';
import { putWholeDots } from '../../../web/app/wholeDots.ts';
import { WorkerPool } from '../../../web/worker/pool.ts';
import type { RunView } from '../../../web/worker/protocol.ts';
import { fakeWorkers } from '../../helpers/fakeWorkers.ts';

const coarseView = () => ({ wallMs: 1, series: { coarseOnly: true, sends: Float64Array.of(0, 1) } }) as unknown as RunView;

describe('a zoomed run', () => {
  it('gets its whole dots from its side’s worker, in place of the view they belong to and of no newer one', async () => {
    const { made, spawn } = fakeWorkers();
    const pool = new WorkerPool([], spawn);
    const b = made[1];
    let shown: RunView | null = null;
    void pool.run('b', contest('Verizon-LTE-short', [flow('aimd')]), (v) => (shown = v));
    b.onmessage!({ data: { id: b.posted[0].id, kind: 'view', view: coarseView(), final: true } });
    const view = shown!;
    const updates: ((now: RunView | null) => RunView | null)[] = [];
    const put = putWholeDots(pool, 'b', view, (u) => updates.push(u));
    const ask = b.posted.find((m) => m.kind === 'dots')!;
    expect(made[0].posted).toEqual([]);
    const sends = Float64Array.of(0, 1, 1, 2);
    b.onmessage!({ data: { id: ask.id, kind: 'dots', dots: { sends } } });
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
    await putWholeDots(pool, 'a', { wallMs: 1, series: {} } as RunView, (u) => updates.push(u));
    await putWholeDots(null, 'a', coarseView(), (u) => updates.push(u));
    expect(made[0].posted).toEqual([]);
    expect(updates).toEqual([]);
  });
});
