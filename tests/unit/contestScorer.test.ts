import { describe, expect, it } from 'vitest';
import type { RunOutput } from '../../server/contest/runProtocol.ts';
import type { Sandbox } from '../../server/contest/sandbox.ts';
import { Scorer } from '../../server/contest/scorer.ts';

/** A sandbox whose runs end when the test says, or when stopped: each run waits in `runs` for its answer. */
function heldSandbox() {
  const runs: ((out: RunOutput) => void)[] = [];
  const run = (_input: unknown, _limits: unknown, stop?: AbortSignal) =>
    new Promise<RunOutput>((resolve) => {
      runs.push(resolve);
      stop?.addEventListener('abort', () => {
        runs.splice(runs.indexOf(resolve), 1);
        resolve({ ok: false, kind: 'sandbox', error: 'killed' });
      });
    });
  const sandbox = { run } as unknown as Sandbox;
  return { sandbox, running: () => runs.length, finishOne: () => runs.shift()?.({ ok: false, kind: 'exception', error: 'done' }) };
}

/** A scorer of `slots` slots (one unless said) on one trace, and the jobs' names in the order they started. */
function oneSlot(sandbox: Sandbox, slots = 1) {
  const scorer = new Scorer(sandbox, {
    traces: [{ trace: 'Verizon-LTE-short', source: 'Verizon-LTE-short', heldOut: false }],
    link: {},
    limits: { memoryMb: 64, cpuSeconds: 1, wallSeconds: 1 },
    slots,
  });
  const started: string[] = [];
  const job = (name: string) => ({ code: '', scheme: 'user', started: () => started.push(name), finished: () => {} });
  return { scorer, started, job };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('the contest scorer', () => {
  it('takes submissions by address in turn, one slot: a newcomer waits for the run under way only; a reference when no submission waits', async () => {
    const { sandbox, finishOne } = heldSandbox();
    const { scorer, started, job } = oneSlot(sandbox);
    for (const name of ['a1', 'a2', 'a3']) scorer.add(job(name), '10.0.0.1');
    scorer.addReference(job('reference'));
    scorer.add(job('b1'), '10.0.0.2');
    scorer.add(job('b2'), '10.0.0.2');
    expect([scorer.waiting, scorer.waitingFrom('10.0.0.1'), scorer.waitingFrom('10.0.0.2')]).toEqual([4, 2, 2]);
    for (let i = 0; i < 6; i++) {
      finishOne();
      await flush();
    }
    scorer.add(job('c1'), '10.0.0.3');
    finishOne();
    await flush();
    expect(started).toEqual(['a1', 'b1', 'a2', 'b2', 'a3', 'reference', 'c1']);
  });

  it('stops a reference run for a submission, and runs the reference again from its start once none waits', async () => {
    const { sandbox, running, finishOne } = heldSandbox();
    const { scorer, started, job } = oneSlot(sandbox);
    scorer.addReference(job('r1'));
    scorer.addReference(job('r2'));
    expect([started, running()]).toEqual([['r1'], 1]);
    scorer.add(job('a1'), '10.0.0.1');
    await flush();
    expect([started, running(), scorer.waiting]).toEqual([['r1', 'a1'], 1, 0]);
    finishOne();
    await flush();
    finishOne();
    await flush();
    expect(started).toEqual(['r1', 'a1', 'r1', 'r2']);
  });

  it('with two slots, stops only as many reference runs as submissions wait, however close they come', async () => {
    const { sandbox, running, finishOne } = heldSandbox();
    const { scorer, started, job } = oneSlot(sandbox, 2);
    for (const name of ['r1', 'r2', 'r3']) scorer.addReference(job(name));
    scorer.add(job('a1'), '10.0.0.1');
    await flush();
    expect([started, running(), scorer.waiting]).toEqual([['r1', 'r2', 'a1'], 2, 0]);
    // r2 ends, then a1: the stopped r1 and then r3 take their slots
    finishOne();
    await flush();
    finishOne();
    await flush();
    expect(started).toEqual(['r1', 'r2', 'a1', 'r1', 'r3']);
    // two submissions in one turn of the event loop, while the first reference stopped still holds its slot
    scorer.add(job('b1'), '10.0.0.2');
    scorer.add(job('c1'), '10.0.0.3');
    scorer.add(job('d1'), '10.0.0.4');
    await flush();
    expect([started, running(), scorer.waiting]).toEqual([['r1', 'r2', 'a1', 'r1', 'r3', 'b1', 'c1'], 2, 1]);
  });

  it('puts a newcomer before the second submission of an address already served', async () => {
    const { sandbox, finishOne } = heldSandbox();
    const { scorer, started, job } = oneSlot(sandbox);
    for (const name of ['a1', 'a2', 'a3']) scorer.add(job(name), 'A');
    scorer.add(job('b1'), 'B');
    for (let i = 0; i < 4; i++) {
      finishOne();
      await flush();
    }
    expect(started).toEqual(['a1', 'b1', 'a2', 'a3']);
  });
});
