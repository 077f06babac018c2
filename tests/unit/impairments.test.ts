import { describe, expect, it } from 'vitest';
import { DelayLine, LossStage, losesOrDuplicates, NO_IMPAIRMENTS, type ImpairmentSpec } from '../../shared/link/impairments.ts';
import { EventLog } from '../../shared/log/eventLog.ts';
import { K } from '../../shared/log/kinds.ts';
import { Rng } from '../../shared/sim/rng.ts';
import { Scheduler } from '../../shared/sim/scheduler.ts';
import { Capture, packet } from '../helpers/capture.ts';

const N = 100_000;

function throughLoss(spec: Partial<ImpairmentSpec>, seed = 1) {
  const log = new EventLog();
  const stage = new LossStage({ ...NO_IMPAIRMENTS, ...spec }, new Rng(seed, 'test'), log, false);
  const out = new Capture();
  stage.next = out;
  for (let i = 0; i < N; i++) stage.receive(packet(i), i);
  return { out, log };
}

function throughDelay(spec: Partial<ImpairmentSpec>, delay: number, n = N) {
  const s = new Scheduler();
  const line = new DelayLine(s, delay, { ...NO_IMPAIRMENTS, ...spec }, new Rng(1, 'test'));
  const out = new Capture();
  line.next = out;
  for (let i = 0; i < n; i++) s.at(i, (now) => line.receive(packet(i), now));
  s.run();
  return out;
}

describe('impairments', () => {
  it('i.i.d. loss drops its percentage', () => {
    const { out, log } = throughLoss({ loss: 0.05 });
    expect((N - out.got.length) / N).toBeCloseTo(0.05, 2);
    expect(log.count(K.drop)).toBe(N - out.got.length);
  });

  it('Gilbert–Elliott loss averages p/(p+r)·h and comes in bursts', () => {
    const { out } = throughLoss({ burst: { p: 0.01, r: 0.1, lossBad: 0.8 } });
    const lost = N - out.got.length;
    expect(lost / N).toBeCloseTo((0.01 / 0.11) * 0.8, 2);
    // bursty: far more back-to-back losses than independent loss at the same rate would give
    const delivered = new Set(out.seqs);
    let pairs = 0;
    for (let i = 1; i < N; i++) if (!delivered.has(i) && !delivered.has(i - 1)) pairs++;
    const rate = lost / N;
    expect(pairs / N).toBeGreaterThan(3 * rate * rate);
  });

  it('duplication delivers its percentage twice', () => {
    const { out, log } = throughLoss({ duplicate: 0.1 });
    expect((out.got.length - N) / N).toBeCloseTo(0.1, 2);
    expect(log.count(K.duplicate)).toBe(out.got.length - N);
  });

  it('each effect draws its own stream: adding duplication leaves the same packets lost', () => {
    const a = throughLoss({ loss: 0.05 });
    const b = throughLoss({ loss: 0.05, duplicate: 0.2 });
    expect([...new Set(b.out.seqs)]).toEqual(a.out.seqs);
  });

  it('jitter stays within ±J around the delay and averages the delay', () => {
    const out = throughDelay({ jitter: 5 }, 20, 20_000);
    const delays = out.got.map((g) => g.t - g.packet.seq);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(15);
    expect(Math.max(...delays)).toBeLessThanOrEqual(25);
    expect(delays.reduce((s, d) => s + d, 0) / delays.length).toBeCloseTo(20, 1);
  });

  it('a reordered packet skips the delay and overtakes those before it', () => {
    const out = throughDelay({ reorder: 0.25 }, 10, 20_000);
    const early = out.got.filter((g) => g.t === g.packet.seq).length;
    expect(early / 20_000).toBeCloseTo(0.25, 1);
    const seqs = out.seqs;
    let inversions = 0;
    for (let i = 1; i < seqs.length; i++) if (seqs[i] < seqs[i - 1]) inversions++;
    expect(inversions).toBeGreaterThan(1000);
  });

  it('without jitter or reordering, every packet leaves exactly the delay later, in order, however many are on the wire', () => {
    const out = throughDelay({}, 200, 1000); // 200 on the wire at once, past the line's first ring of 64
    expect(out.seqs).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(out.got.every((g) => g.t === g.packet.seq + 200)).toBe(true);
    expect(throughDelay({}, 0, 3).got.map((g) => g.t)).toEqual([0, 1, 2]);
  });

  it('each effect draws from its own named stream of the direction’s generator', () => {
    const stream = (name: string) => new Rng(1, 'test').stream(name);
    const loss = stream('loss');
    const kept = Array.from({ length: N }, (_, i) => i).filter(() => !loss.chance(0.1));
    expect(throughLoss({ loss: 0.1 }).out.seqs).toEqual(kept);
    const dup = stream('duplicate');
    const twice = Array.from({ length: N }, (_, i) => i).filter(() => dup.chance(0.05));
    expect(throughLoss({ duplicate: 0.05 }).out.seqs.filter((seq, i, all) => all[i + 1] === seq)).toEqual(twice);
    const jitter = stream('jitter');
    const want = Array.from({ length: 50 }, (_, i) => i + Math.max(0, 20 + jitter.uniform(-5, 5)));
    const got = throughDelay({ jitter: 5 }, 20, 50).got;
    expect(got.map((g) => g.t).sort((a, b) => a - b)).toEqual(want.sort((a, b) => a - b));
    const reorder = stream('reorder');
    const early = Array.from({ length: 50 }, (_, i) => i).filter(() => reorder.chance(0.3));
    expect(
      throughDelay({ reorder: 0.3 }, 10, 50)
        .got.filter((g) => g.t === g.packet.seq)
        .map((g) => g.packet.seq)
        .sort((a, b) => a - b),
    ).toEqual(early);
  });

  it('a direction needs a loss stage only if it drops or duplicates', () => {
    expect(losesOrDuplicates(NO_IMPAIRMENTS)).toBe(false);
    expect(losesOrDuplicates({ ...NO_IMPAIRMENTS, jitter: 5, reorder: 0.5 })).toBe(false);
    expect(losesOrDuplicates({ ...NO_IMPAIRMENTS, loss: 0.01 })).toBe(true);
    expect(losesOrDuplicates({ ...NO_IMPAIRMENTS, burst: { p: 0.01, r: 0.5, lossBad: 1 } })).toBe(true);
    expect(losesOrDuplicates({ ...NO_IMPAIRMENTS, duplicate: 0.01 })).toBe(true);
  });
});
