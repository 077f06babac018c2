import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunSeries } from '../../../shared/metrics/series.ts';
import { contest, flow } from '../../../shared/scenarios/presets.ts';
import { WorkerPool } from '../../../web/worker/pool.ts';
import type { RunView } from '../../../web/worker/protocol.ts';
import { fakeWorkers } from '../../helpers/fakeWorkers.ts';

const spec = contest('Verizon-LTE-short', [flow('fixed', { w: 50 })]);
const view = (wallMs: number) => ({ wallMs }) as RunView;
const runsAsked = (posted: { kind: string }[]) => posted.filter((m) => m.kind === 'run').length;

describe('the runs the page opens on, asked before it renders', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('go to the worker at once; the page’s first ask of the same run asks nothing more and gets what came meanwhile', async () => {
    const { made: workers, spawn } = fakeWorkers();
    const pool = new WorkerPool([], spawn);
    const a = workers[0];
    pool.runEarly('a', spec, false);
    expect(runsAsked(a.posted)).toBe(1);
    const id = a.posted[0].id;
    a.onmessage!({ data: { id, kind: 'view', view: view(7), final: true } });
    const shown: RunView[] = [];
    const answer = await pool.run('a', structuredClone(spec), (v) => shown.push(v));
    expect(runsAsked(a.posted)).toBe(1);
    expect(shown.map((v) => v.wallMs)).toEqual([7]);
    expect(answer).toMatchObject({ id, kind: 'view' });
  });

  it('a preview that came before the page could draw it is drawn when the page asks; the whole run follows to the same side', () => {
    vi.stubGlobal('requestAnimationFrame', () => 0);
    const { made: workers, spawn } = fakeWorkers();
    const pool = new WorkerPool([], spawn);
    const b = workers[1];
    pool.runEarly('b', spec, true);
    const id = b.posted[0].id;
    const series = { endMs: 2000 } as RunSeries;
    b.onmessage!({ data: { id, kind: 'preview', series } });
    const drawn: RunSeries[] = [];
    const shown: RunView[] = [];
    void pool.run('b', spec, (v) => shown.push(v), { onPreview: (s) => drawn.push(s) });
    expect(drawn).toEqual([series]);
    expect(shown).toEqual([]);
    b.onmessage!({ data: { id, kind: 'view', view: view(9), final: true } });
    expect(shown.map((v) => v.wallMs)).toEqual([9]);
    expect(runsAsked(b.posted)).toBe(1);
  });

  it('a different run, or the same without the preview asked, is asked anew and the early one’s answer is not shown', () => {
    const { made: workers, spawn } = fakeWorkers();
    const pool = new WorkerPool([], spawn);
    const a = workers[0];
    pool.runEarly('a', spec, true);
    const early = a.posted[0].id;
    const shown: RunView[] = [];
    void pool.run('a', spec, (v) => shown.push(v));
    expect(runsAsked(a.posted)).toBe(2);
    a.onmessage!({ data: { id: early, kind: 'view', view: view(1), final: true } });
    expect(shown).toEqual([]);
    // Taken over once at most: a later ask of the same run is a new run.
    pool.runEarly('a', spec, false);
    void pool.run('a', spec, () => {});
    void pool.run('a', spec, () => {});
    expect(runsAsked(a.posted)).toBe(4);
  });
});
