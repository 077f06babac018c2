import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Summary } from '../../shared/metrics/summary.ts';
import { contest, flow } from '../../shared/scenarios/presets.ts';
import type { WorkerRequest, WorkerResponse } from '../../web/worker/protocol.ts';
import type { WorkerLike } from '../../web/worker/sandboxHost.ts';
import { SweepPool } from '../../web/worker/sweepPool.ts';
import { HANG_MS, hangMessage } from '../../web/worker/watchdog.ts';

/** A worker the test plays: it records what the pool sends and answers when told. */
class FakeWorker {
  sent: WorkerRequest[] = [];
  terminated = false;
  onmessage: ((e: MessageEvent<WorkerResponse>) => void) | null = null;
  onerror: ((e: { message: string; preventDefault(): void }) => void) | null = null;
  postMessage(m: WorkerRequest): void {
    this.sent.push(m);
  }
  terminate(): void {
    this.terminated = true;
  }
  /** An error nothing in the worker caught, as the browser reports it. */
  fail(message: string): void {
    this.onerror?.({ message, preventDefault() {} });
  }
  answer(m: WorkerResponse): void {
    this.onmessage?.({ data: m } as MessageEvent<WorkerResponse>);
  }
  /** The id and probe of the last summary request. */
  last() {
    const m = this.sent.at(-1) as Extract<WorkerRequest, { kind: 'summary' }>;
    return { id: m.id, probeFrom: m.probeFrom };
  }
}

const summary = (n: number) => ({ all: { throughputMbps: n } }) as unknown as Summary;
const specs = [1, 2, 3].map((w) => contest('Verizon-LTE-short', [flow('fixed', { w })]));

let workers: FakeWorker[];
let pool: SweepPool;
beforeEach(() => {
  vi.useFakeTimers();
  workers = [];
  pool = new SweepPool(2, () => {
    const w = new FakeWorker();
    workers.push(w);
    return w as unknown as WorkerLike;
  });
});
afterEach(() => {
  pool.close();
  vi.useRealTimers();
});

describe('the sweep pool with user code that hangs', () => {
  it('replaces the hung worker, runs the point again probing, names the callback and finishes the sweep', async () => {
    const results: [number, number][] = [];
    const errors: [number, string][] = [];
    const done = pool.run(
      specs,
      (i, s) => results.push([i, s.all.throughputMbps]),
      (i, m) => errors.push([i, m]),
    );
    expect(workers.map((w) => w.last())).toEqual([
      { id: 1, probeFrom: undefined },
      { id: 2, probeFrom: undefined },
    ]);
    // worker 0 finishes its point and takes the third; worker 1's user code beats, then stops beating
    workers[0].answer({ id: 1, kind: 'summary', summary: summary(10), wallMs: 5 });
    expect(workers[0].last()).toEqual({ id: 3, probeFrom: undefined });
    workers[1].answer({ id: 2, kind: 'beat', callback: 'windowSize', entered: 4096 });
    // beats that keep coming keep a slow run alive
    vi.advanceTimersByTime(HANG_MS - 1);
    workers[1].answer({ id: 2, kind: 'beat', callback: 'onAck', entered: 5120 });
    vi.advanceTimersByTime(HANG_MS - 1);
    expect(workers.map((w) => w.terminated)).toEqual([false, false]);
    vi.advanceTimersByTime(1);
    // ended; a fresh worker runs the point again, reporting every callback from the last beat's count
    expect(workers.map((w) => w.terminated)).toEqual([false, true, false]);
    expect(workers[2].last()).toEqual({ id: 2, probeFrom: 5120 });
    workers[2].answer({ id: 2, kind: 'beat', callback: 'onAck', entered: 5120 });
    workers[2].answer({ id: 2, kind: 'beat', callback: 'onTimeout', entered: 5121 });
    vi.advanceTimersByTime(HANG_MS);
    // hung again while probing: the point fails naming the last callback entered, in another fresh worker
    expect(workers.map((w) => w.terminated)).toEqual([false, true, true, false]);
    expect(errors).toEqual([[1, hangMessage('onTimeout')]]);
    expect(hangMessage('onTimeout')).toBe(
      `your controller in onTimeout: did not return for ${HANG_MS} ms (a hang the loop guard cannot stop, such as a regular expression that backtracks for ever): its worker was stopped and replaced`,
    );
    // a late message of a replaced run is not counted; the last point finishes the sweep
    workers[0].answer({ id: 3, kind: 'beat', callback: null, entered: 0 });
    workers[0].answer({ id: 3, kind: 'summary', summary: summary(30), wallMs: 5 });
    await expect(done).resolves.toBe(true);
    expect(results).toEqual([
      [0, 10],
      [2, 30],
    ]);
    // the pool stays usable: the next sweep runs on the two live workers
    const again = pool.run(
      specs.slice(0, 1),
      (i, s) => results.push([i, s.all.throughputMbps]),
      () => {},
    );
    expect(workers[0].last()).toEqual({ id: 1, probeFrom: undefined });
    workers[0].answer({ id: 1, kind: 'summary', summary: summary(11), wallMs: 5 });
    await expect(again).resolves.toBe(true);
    expect(results.at(-1)).toEqual([0, 11]);
    // a later sweep's point of the same number that hangs is probed afresh, not failed as if still probing
    void pool.run(
      specs.slice(0, 2),
      () => {},
      (i, m) => errors.push([i, m]),
    );
    expect(workers[3].last()).toEqual({ id: 2, probeFrom: undefined });
    workers[3].answer({ id: 2, kind: 'beat', callback: 'onAck', entered: 7 });
    vi.advanceTimersByTime(HANG_MS);
    expect(workers[4].last()).toEqual({ id: 2, probeFrom: 7 });
    expect(errors).toEqual([[1, hangMessage('onTimeout')]]);
  });

  it('hands a replacing worker the sweep’s uploaded traces', () => {
    void pool.run(
      specs.slice(0, 1),
      () => {},
      () => {},
      [{ name: 'mine', text: '1\n2\n' }],
    );
    expect(workers[0].sent.map((m) => m.kind)).toEqual(['upload', 'summary']);
    workers[0].answer({ id: 1, kind: 'beat', callback: 'onAck', entered: 1 });
    vi.advanceTimersByTime(HANG_MS);
    expect(workers[1].sent).toEqual([
      { id: 0, kind: 'upload', name: 'mine', text: '1\n2\n' },
      { id: 1, kind: 'summary', spec: specs[0], probeFrom: 1 },
    ]);
  });

  it('waits on no hang once the sweep is cancelled', () => {
    const done = pool.run(
      specs,
      () => {},
      () => {},
    );
    workers[0].answer({ id: 1, kind: 'beat', callback: 'onAck', entered: 1 });
    pool.cancel();
    vi.advanceTimersByTime(10 * HANG_MS);
    expect(workers.length).toBe(2);
    return expect(done).resolves.toBe(false);
  });
});

describe('the sweep pool with a worker that fails', () => {
  it('answers the failed worker’s point with its error, and a fresh worker finishes the sweep', async () => {
    const results: number[] = [];
    const errors: [number, string][] = [];
    const done = pool.run(
      specs,
      (i) => results.push(i),
      (i, m) => errors.push([i, m]),
      [{ name: 'mine', text: '1\n2\n' }],
    );
    workers[1].fail('Uncaught RangeError: out of memory');
    expect(errors).toEqual([[1, 'the worker failed: Uncaught RangeError: out of memory']]);
    expect(workers.map((w) => w.terminated)).toEqual([false, true, false]);
    // the replacement holds the sweep's uploads and takes the point left
    expect(workers[2].sent.map((m) => m.kind)).toEqual(['upload', 'summary']);
    expect(workers[2].last()).toEqual({ id: 3, probeFrom: undefined });
    workers[0].answer({ id: 1, kind: 'summary', summary: summary(10), wallMs: 5 });
    workers[2].answer({ id: 3, kind: 'summary', summary: summary(30), wallMs: 5 });
    await expect(done).resolves.toBe(true);
    expect(results).toEqual([0, 2]);
  });

  it('a worker that fails between sweeps is ended, and the next sweep starts a fresh one in its place', async () => {
    workers.length = 0;
    void pool.run(
      specs.slice(0, 2),
      () => {},
      () => {},
    );
    workers[0].answer({ id: 1, kind: 'summary', summary: summary(10), wallMs: 5 });
    workers[1].answer({ id: 2, kind: 'summary', summary: summary(20), wallMs: 5 });
    workers[0].fail('');
    // none starts in its place until a sweep needs it: a worker that cannot start is not started again and again
    expect(workers.map((w) => w.terminated)).toEqual([true, false]);
    const errors: string[] = [];
    const done = pool.run(
      specs.slice(0, 2),
      () => {},
      (_, m) => errors.push(m),
    );
    expect(workers.map((w) => w.terminated)).toEqual([true, false, false]);
    expect(workers[1].last()).toEqual({ id: 1, probeFrom: undefined });
    expect(workers[2].last()).toEqual({ id: 2, probeFrom: undefined });
    workers[2].fail('');
    expect(errors).toEqual(['the worker failed: it gave no reason']);
    workers[1].answer({ id: 1, kind: 'summary', summary: summary(10), wallMs: 5 });
    await expect(done).resolves.toBe(true);
  });
});

describe('the sweep pool with the user’s code beside built-ins', () => {
  const mine = (k: number) => ({ ...specs[k], code: 'export default mine;' });
  const theirs = { ...specs[0], code: 'export default theirs;' };
  /** The code of each spec a worker was sent, null for none. */
  const codesRun = (w: FakeWorker) => w.sent.flatMap((m) => (m.kind === 'summary' ? [m.spec.code ?? null] : []));
  const answer = (w: FakeWorker) => w.answer({ id: w.last().id, kind: 'summary', summary: summary(w.last().id), wallMs: 5 });

  it('runs a spec without that code, or of other code, never in a worker that loaded it, across sweeps', async () => {
    const results: number[] = [];
    const done = pool.run(
      [mine(0), specs[1], specs[2], mine(1)],
      (i) => results.push(i),
      () => {},
    );
    expect(workers.map((w) => w.last().id)).toEqual([1, 2]);
    // worker 0 has loaded the code: of the two left it takes the one with the same code, passing the built-in
    answer(workers[0]);
    expect(workers[0].last().id).toBe(4);
    // worker 1 has run built-ins only: it takes the built-in
    answer(workers[1]);
    expect(workers[1].last().id).toBe(3);
    answer(workers[0]);
    answer(workers[1]);
    await expect(done).resolves.toBe(true);
    expect(results.sort()).toEqual([0, 1, 2, 3]);
    // the next sweep: built-ins, then another student's code; worker 0 is ended and a fresh one takes its place
    const next = pool.run(
      [specs[0], specs[1], theirs],
      () => {},
      () => {},
      [{ name: 'mine', text: '1\n' }],
    );
    expect(workers.map((w) => w.terminated)).toEqual([true, false, false]);
    expect(codesRun(workers[2])).toEqual([null]);
    // the sweep's upload goes to the fresh worker, not to the one ended
    expect(workers[2].sent.map((m) => m.kind)).toEqual(['upload', 'summary']);
    expect(workers[0].sent.some((m) => m.kind === 'upload')).toBe(false);
    expect(codesRun(workers[1])).toEqual([null, null, null]);
    // worker 1 has still run built-ins only: it takes the other code
    answer(workers[1]);
    expect(codesRun(workers[1]).at(-1)).toBe(theirs.code);
    answer(workers[2]);
    answer(workers[1]);
    await expect(next).resolves.toBe(true);
    // built-ins again: the worker that loaded that code is ended in turn
    void pool.run(
      [specs[0], specs[1]],
      () => {},
      () => {},
    );
    expect(workers.map((w) => w.terminated)).toEqual([true, true, false, false]);
    expect(codesRun(workers[2]).at(-1)).toBeNull();
    expect(codesRun(workers[3])).toEqual([null]);
    for (const w of workers) {
      const codes = codesRun(w);
      const first = codes.findIndex((c) => c !== null);
      if (first >= 0) expect(new Set(codes.slice(first))).toEqual(new Set([codes[first]]));
    }
  });
});
