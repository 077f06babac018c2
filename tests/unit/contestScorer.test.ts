import { describe, expect, it } from 'vitest';
import type { RunOutput } from '../../server/contest/runProtocol.ts';
import type { Sandbox } from '../../server/contest/sandbox.ts';
import { Scorer } from '../../server/contest/scorer.ts';

/** A sandbox whose runs end when the test says: each run waits in `runs` for its answer. */
function heldSandbox() {
  const runs: ((out: RunOutput) => void)[] = [];
  const sandbox = { run: () => new Promise<RunOutput>((r) => runs.push(r)) } as unknown as Sandbox;
  return { sandbox, finishOne: () => runs.shift()?.({ ok: false, kind: 'exception', error: 'done' }) };
}

/** A scorer of one slot on one trace, and the jobs' names in the order they started. */
function oneSlot(sandbox: Sandbox) {
  const scorer = new Scorer(sandbox, {
    traces: [{ trace: 'Verizon-LTE-short', source: 'Verizon-LTE-short', heldOut: false }],
    link: {},
    limits: { memoryMb: 64, cpuSeconds: 1, wallSeconds: 1 },
    slots: 1,
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
    scorer.addReference(job('reference'));
    for (const name of ['a1', 'a2', 'a3']) scorer.add(job(name), '10.0.0.1');
    scorer.add(job('b1'), '10.0.0.2');
    scorer.add(job('b2'), '10.0.0.2');
    expect([scorer.waiting, scorer.waitingFrom('10.0.0.1'), scorer.waitingFrom('10.0.0.2')]).toEqual([5, 3, 2]);
    for (let i = 0; i < 5; i++) {
      finishOne();
      await flush();
    }
    scorer.add(job('c1'), '10.0.0.3');
    for (let i = 0; i < 3; i++) {
      finishOne();
      await flush();
    }
    expect(started).toEqual(['reference', 'a1', 'b1', 'a2', 'b2', 'a3', 'c1']);
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
