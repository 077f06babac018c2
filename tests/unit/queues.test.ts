import { describe, expect, it } from 'vitest';
import { CodelQueue } from '../../shared/link/codel.ts';
import { DropHeadQueue, DropTailQueue, createQueue } from '../../shared/link/queue.ts';
import { PieQueue } from '../../shared/link/pie.ts';
import type { Packet } from '../../shared/net/packet.ts';
import { Rng } from '../../shared/sim/rng.ts';
import { packet } from '../helpers/capture.ts';

function recording<Q extends { onDrop: (p: Packet, now: number) => void }>(q: Q): { q: Q; drops: number[] } {
  const drops: number[] = [];
  q.onDrop = (p) => drops.push(p.seq);
  return { q, drops };
}

describe('drop-tail and drop-head', () => {
  it('drop-tail refuses the arriving packet; drop-head takes it and drops the oldest', () => {
    const tail = new DropTailQueue(2, Infinity);
    expect([0, 1, 2].map((s) => tail.push(packet(s), 0))).toEqual([true, true, false]);
    const { q, drops } = recording(new DropHeadQueue(2, Infinity));
    expect([0, 1, 2, 3].map((s) => q.push(packet(s), s))).toEqual([true, true, true, true]);
    expect(drops).toEqual([0, 1]);
    expect([q.shift(5).seq, q.shift(5).seq]).toEqual([2, 3]);
  });

  it('drop-head by bytes drops as many old packets as the newcomer needs', () => {
    const { q, drops } = recording(new DropHeadQueue(Infinity, 3000));
    q.push(packet(0, 1000), 0);
    q.push(packet(1, 1000), 0);
    q.push(packet(2, 2500), 0);
    expect(drops).toEqual([0, 1]);
    expect(q.bytes).toBe(2500);
    expect(q.push(packet(3, 3001), 0)).toBe(false); // could never fit
  });
});

describe('CoDel (Mahimahi)', () => {
  it('starts dropping after an interval above target, then at interval/√count, and stops at one packet left', () => {
    const { q, drops } = recording(new CodelQueue(Infinity, Infinity, 5, 100));
    for (let s = 0; s < 10; s++) q.push(packet(s), 0);
    const out = [10, 50, 110, 150, 210, 280].map((t) => q.shift(t).seq);
    expect(out).toEqual([0, 1, 2, 4, 5, 7]);
    expect(drops).toEqual([3, 6, 8]);
    expect(q.length).toBe(1);
  });

  it('never drops while the sojourn time stays under target', () => {
    const { q, drops } = recording(new CodelQueue(Infinity, Infinity, 5, 100));
    for (let t = 0; t < 1000; t++) {
      q.push(packet(t), t);
      if (t >= 4) expect(q.shift(t).seq).toBe(t - 4); // 4 ms in the queue
    }
    expect(drops).toEqual([]);
  });
});

describe('PIE (Mahimahi)', () => {
  const fixedRng = (value: number) => ({ next: () => value }) as unknown as Rng;

  it('measures the departure rate, updates the drop probability every 30 ms, and drops at random above it', () => {
    let draw = 0.5;
    const q = new PieQueue(Infinity, Infinity, 15, 0, { next: () => draw } as unknown as Rng);
    for (let s = 0; s < 20; s++) q.push(packet(s), 0);
    for (let t = 1; t <= 11; t++) q.shift(t); // 16 544 bytes over 10 ms: 1654 bytes/ms
    expect(q.push(packet(20), 31)).toBe(true); // qdelay 13 536/1654 → 8 ms: p = (0.125·(8−15) + 1.25·8)/128
    expect(q.probability).toBe(9.125 / 128);
    draw = 0.05;
    expect(q.push(packet(21), 61)).toBe(false); // qdelay 9: p += (0.125·(9−15) + 1.25·(9−8))/32
    expect(q.probability).toBe(9.125 / 128 + 0.5 / 32);
    draw = 0.5;
    expect(q.push(packet(22), 62)).toBe(true);
  });

  it('updates only once more than 30 ms have passed, and holds the drop probability at 1', () => {
    const q = new PieQueue(Infinity, Infinity, 15, 0, { next: () => 0.99 } as unknown as Rng);
    for (let s = 0; s < 20; s++) q.push(packet(s), 0);
    for (let t = 1; t <= 11; t++) q.shift(t); // 1654 bytes/ms, as above
    expect(q.push(packet(20), 30)).toBe(true); // 30 ms since the last update: not yet the next
    expect(q.probability).toBe(0);
    expect(q.push(packet(21), 31)).toBe(true); // qdelay 15 040/1654 → 9 ms: p = (0.125·(9−15) + 1.25·9)/128
    expect(q.probability).toBe(10.5 / 128);
    for (let s = 22; s < 1022; s++) expect(q.push(packet(s), 31)).toBe(true); // each draw of 0.99 is above p
    // qdelay 1 520 544/1654 → 919 ms: p += (0.125·(919−15) + 1.25·(919−9))/32, far above 1; 0.99 is below 1
    expect(q.push(packet(1022), 61)).toBe(false);
    expect(q.probability).toBe(1);
  });

  it('halves qdelay_ref in whole milliseconds, as Mahimahi does: a delay of 7 ms is not under half of 15', () => {
    const q = new PieQueue(Infinity, Infinity, 15, 0, fixedRng(0.05));
    for (let s = 0; s < 19; s++) q.push(packet(s), 0);
    for (let t = 1; t <= 11; t++) q.shift(t); // 1654 bytes/ms, as above
    expect(q.push(packet(19), 31)).toBe(true); // qdelay 12 032/1654 → 7 ms: p = (0.125·(7−15) + 1.25·7)/128; the old delay, 0, spares it
    // qdelay 13 536/1654 → 8 ms: p += (0.125·(8−15) + 1.25·(8−7))/32; the old delay, 7, is not under ⌊15/2⌋ = 7, so 0.05 < p drops it
    expect(q.push(packet(20), 61)).toBe(false);
    expect(q.probability).toBe(7.75 / 128 + 0.375 / 32);
  });

  it('lets everything through while the queueing delay is low', () => {
    const q = new PieQueue(Infinity, Infinity, 15, 150, fixedRng(0));
    for (let t = 0; t < 2000; t++) {
      expect(q.push(packet(t), t)).toBe(true);
      q.shift(t);
    }
    expect(q.probability).toBe(0);
  });

  it('is built from a queue spec', () => {
    expect(createQueue({ kind: 'infinite', discipline: { kind: 'pie', qdelayRef: 15, maxBurst: 150 } }, new Rng(1))).toBeInstanceOf(PieQueue);
    expect(createQueue({ kind: 'packets', limit: 5, discipline: { kind: 'codel', target: 5, interval: 100 } }, new Rng(1))).toBeInstanceOf(CodelQueue);
    expect(createQueue({ kind: 'packets', limit: 5 }, new Rng(1))).toBeInstanceOf(DropTailQueue);
  });
});

describe('a discipline behind the bottleneck', () => {
  it('CoDel under a fixed window of 200: its drops are logged as AQM drops and never delivered', async () => {
    const { runScenario } = await import('../../shared/scenarios/run.ts');
    const { flow, rateLink } = await import('../../shared/scenarios/presets.ts');
    const { DROP, K } = await import('../../shared/log/kinds.ts');
    const link = rateLink(12, 20, undefined, { kind: 'infinite', discipline: { kind: 'codel', target: 5, interval: 100 } });
    const run = runScenario({ workload: 'contest', link, flows: [flow('fixed', { w: 200 })], seed: 1, durationMs: 3000, offset: null }, () => {
      throw new Error('no traces');
    });
    const c = run.log.columns;
    const dropped = new Set<number>();
    const delivered = new Set<number>();
    for (let i = 0; i < run.log.length; i++) {
      if (c.kind[i] === K.drop) {
        expect(c.value[i]).toBe(DROP.aqm);
        dropped.add(c.seq[i]);
      }
      if (c.kind[i] === K.deliver) delivered.add(c.seq[i]);
    }
    expect(dropped.size).toBeGreaterThan(0);
    for (const s of dropped) expect(delivered.has(s)).toBe(false);
  });
});
