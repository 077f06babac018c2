import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunSeries } from '../../../shared/metrics/series.ts';
import { contest, flow } from '../../../shared/scenarios/presets.ts';
import { previewWaits } from '../../../web/worker/previewWait.ts';
import { WorkerPool } from '../../../web/worker/pool.ts';
import { fakeWorkers } from '../../helpers/fakeWorkers.ts';

describe('the preview handshake', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('a worker waits for the page to say it drew the preview, or for the wait’s end', async () => {
    const waits = previewWaits(400);
    const went: string[] = [];
    void waits.wait(1).then(() => went.push('1'));
    void waits.wait(2).then(() => went.push('2'));
    waits.shown(1);
    await vi.advanceTimersByTimeAsync(399);
    expect(went).toEqual(['1']);
    await vi.advanceTimersByTimeAsync(1);
    expect(went).toEqual(['1', '2']);
    // Told too late, or twice, it changes nothing.
    waits.shown(2);
    waits.shown(1);
    expect(went).toEqual(['1', '2']);
  });

  it('the page tells the worker once the frame with the preview is drawn, at once for a preview it no longer wants', async () => {
    const frames: (() => void)[] = [];
    vi.stubGlobal('requestAnimationFrame', (f: () => void) => frames.push(f));
    const { made: workers, spawn } = fakeWorkers();
    const pool = new WorkerPool([], spawn);
    const a = workers[0];
    const drawn: RunSeries[] = [];
    const spec = contest('Verizon-LTE-short', [flow('fixed', { w: 50 })]);
    void pool.run('a', spec, () => {}, { onPreview: (s) => drawn.push(s) });
    const first = a.posted[0].id;
    const series = { endMs: 1 } as RunSeries;
    a.onmessage!({ data: { id: first, kind: 'preview', series } });
    expect(drawn).toEqual([series]);
    const shown = () => a.posted.filter((m) => m.kind === 'preview-shown').map((m) => m.id);
    expect(shown()).toEqual([]);
    frames.shift()!();
    expect(shown()).toEqual([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(shown()).toEqual([first]);
    // A newer run replaced the first: its preview is not drawn, and its worker goes on at once.
    void pool.run('a', spec, () => {}, { onPreview: (s) => drawn.push(s) });
    a.onmessage!({ data: { id: first, kind: 'preview', series } });
    expect(drawn).toHaveLength(1);
    expect(shown()).toEqual([first, first]);
  });
});
