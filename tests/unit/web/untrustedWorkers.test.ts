import { describe, expect, it } from 'vitest';
import { contest, flow } from '../../../shared/scenarios/presets.ts';
import { WorkerPool } from '../../../web/worker/pool.ts';
import type { RunView } from '../../../web/worker/protocol.ts';
import { RETRY_FAILED_MS, TraceAsks } from '../../../web/worker/traceAsks.ts';
import { fakeWorkers } from '../../helpers/fakeWorkers.ts';

/** A side's worker runs the user's code, which can post the page anything on its port. */

const view = (wallMs: number) => ({ wallMs }) as RunView;
const spec = (scheme: string, code?: string) => ({ ...contest('Verizon-LTE-short', [flow(scheme)]), ...(code === undefined ? {} : { code }) });

describe('answers the page takes from a worker', () => {
  it("takes a side's answers from that side's worker only: A's worker cannot answer B's run", async () => {
    const { made, spawn } = fakeWorkers();
    const pool = new WorkerPool([], spawn);
    const [a, b] = made;
    const shownB: number[] = [];
    const runB = pool.run('b', spec('cubic'), (v) => shownB.push(v.wallMs));
    const idB = b.posted[0].id;
    a.onmessage!({ data: { id: idB, kind: 'view', view: view(666), final: true } });
    // not a number: dropped as well
    a.onmessage!({ data: { id: 'x', kind: 'view', view: view(7), final: true } as never });
    expect(shownB).toEqual([]);
    b.onmessage!({ data: { id: idB, kind: 'view', view: view(2), final: true } });
    expect(await runB).toMatchObject({ id: idB, kind: 'view' });
    expect(shownB).toEqual([2]);
  });

  it("gives a side's run without the user's code a fresh worker once the side's worker loaded that code", async () => {
    const { made, spawn } = fakeWorkers();
    const pool = new WorkerPool([], spawn);
    const ended: number[] = [];
    made.forEach((w, i) => Object.assign(w, { terminate: () => ended.push(i) }));
    const user = pool.run('a', spec('user', 'export default {}'), () => {});
    // the same code again: the same worker
    const again = pool.run('a', spec('user', 'export default {}'), () => {});
    expect(made).toHaveLength(2);
    expect(made[0].posted).toHaveLength(2);
    const builtIn = pool.run('a', spec('cubic'), () => {});
    // the worker that ran the code is ended, what it owed answered, and the built-in goes to a new worker
    expect(ended).toEqual([0]);
    expect([await user, await again]).toMatchObject([{ kind: 'superseded' }, { kind: 'superseded' }]);
    expect(made).toHaveLength(3);
    expect(made[2].posted.map((m) => m.kind)).toEqual(['run']);
    const id = made[2].posted[0].id;
    made[2].onmessage!({ data: { id, kind: 'view', view: view(3), final: true } });
    expect(await builtIn).toMatchObject({ id, kind: 'view' });
    // and a later built-in run stays there
    void pool.run('a', spec('bbr'), () => {});
    expect(made).toHaveLength(3);
  });

  it('asks the fresh worker for what the one it replaced still owed besides runs: an export is answered', async () => {
    const { made, spawn } = fakeWorkers();
    const pool = new WorkerPool([], spawn);
    void pool.run('a', spec('user', 'export default {}'), () => {});
    const csv = pool.exportCsv('a', 'trace');
    void pool.run('a', spec('cubic'), () => {});
    const asked = made[2].posted.find((m) => m.kind === 'export')!;
    made[2].onmessage!({ data: { id: asked.id, kind: 'exported', text: 't,kind\n' } });
    expect(await csv).toBe('t,kind\n');
  });
});

describe("a worker's asks for traces", () => {
  it('sends each trace once, and answers asks for one that failed with its failure until it may be fetched again', () => {
    let now = 0;
    const asks = new TraceAsks(() => now);
    expect(asks.take('a.up')).toBe('send');
    expect([asks.take('a.up'), asks.take('a.up')]).toEqual(['drop', 'drop']);
    expect(asks.take('b.up')).toBe('send');
    asks.failedWith('b.up', 'the server does not answer');
    now = RETRY_FAILED_MS - 1;
    expect(asks.take('b.up')).toEqual({ error: 'the server does not answer' });
    now = RETRY_FAILED_MS;
    expect(asks.take('b.up')).toBe('send');
    expect(asks.take('b.up')).toBe('drop');
  });
});
