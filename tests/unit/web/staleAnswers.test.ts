import { describe, expect, it } from 'vitest';
import { contest, flow } from '../../../shared/scenarios/presets.ts';
import { WorkerPool } from '../../../web/worker/pool.ts';
import type { RunView } from '../../../web/worker/protocol.ts';
import { fakeWorkers } from '../../helpers/fakeWorkers.ts';

const view = (wallMs: number) => ({ wallMs }) as RunView;

describe('a side’s run that a newer one replaced', () => {
  it('answers as superseded when its view comes after all, and is not shown: the side is done only with the newest', async () => {
    const { made: workers, spawn } = fakeWorkers();
    const pool = new WorkerPool([], spawn);
    const a = workers[0];
    const shown: number[] = [];
    const older = pool.run('a', contest('Verizon-LTE-short', [flow('aimd')]), (v) => shown.push(v.wallMs));
    const newer = pool.run('a', contest('Verizon-LTE-short', [flow('cubic')]), (v) => shown.push(v.wallMs));
    const [first, second] = a.posted.map((m) => m.id);
    a.onmessage!({ data: { id: first, kind: 'view', view: view(1), final: true } });
    expect(await older).toEqual({ id: first, kind: 'superseded' });
    expect(shown).toEqual([]);
    a.onmessage!({ data: { id: second, kind: 'view', view: view(2), final: true } });
    expect(await newer).toMatchObject({ id: second, kind: 'view' });
    expect(shown).toEqual([2]);
  });
});
