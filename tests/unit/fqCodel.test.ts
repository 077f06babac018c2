import { describe, expect, it } from 'vitest';
import { FqCodelQueue } from '../../shared/link/fqCodel.ts';
import { createQueue } from '../../shared/link/queue.ts';
import { linkMetrics } from '../../shared/metrics/linkMetrics.ts';
import { flow, rateLink } from '../../shared/scenarios/presets.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import { Rng } from '../../shared/sim/rng.ts';
import { packet } from '../helpers/capture.ts';

const fq = (limit = Infinity) => new FqCodelQueue(limit, Infinity, 5, 100, 1514, false);

describe('FQ-CoDel (Linux sch_fq_codel)', () => {
  it('serves flows by DRR with a 1514-byte quantum: a flow sends while its deficit is above 0', () => {
    const q = fq();
    for (const s of [0, 1, 2]) q.push(packet(s, 1500, 0), 0);
    for (const s of [10, 11, 12]) q.push(packet(s, 1500, 1), 0);
    // flow 0: 1514 → 14 → −1486, refilled to 28 and sent to the old flows; flow 1 likewise; then flow 0
    // (28) sends 2, goes to −1472, is refilled to 42 behind flow 1, which (28) sends 12
    expect(Array.from({ length: 6 }, () => q.shift(0).seq)).toEqual([0, 1, 10, 11, 2, 12]);
    expect([q.length, q.bytes]).toEqual([0, 0]);
  });

  it('serves a newly active flow before the old ones', () => {
    const q = fq();
    for (const s of [0, 1, 2, 3]) q.push(packet(s, 1500, 0), 0);
    expect([q.shift(0).seq, q.shift(0).seq]).toEqual([0, 1]);
    q.push(packet(20, 1500, 2), 1);
    expect(q.headArrival).toBe(1);
    expect([q.shift(1).seq, q.shift(1).seq, q.shift(1).seq]).toEqual([20, 2, 3]);
  });

  it('spares a packet only when the whole queue holds at most a packet besides it, not its flow alone', () => {
    const q = fq();
    const drops: number[] = [];
    q.onDrop = (p) => drops.push(p.seq);
    for (const s of [0, 1, 2]) q.push(packet(s, 1500, 0), 0);
    for (const s of [10, 11, 12, 13]) q.push(packet(s, 1500, 1), 0);
    // 10 ms: flow 0 hands out 0 (sojourn 10 ≥ 5 with 9000 bytes left: above target from 110);
    // 120 ms: its deficit (14) lets it hand out 1, sojourn 120 past 110 with 7500 bytes left in all
    // (1500 of them its own): CoDel drops the packet after it, 2, as Linux's whole-qdisc backlog allows
    expect([q.shift(10).seq, q.shift(120).seq]).toEqual([0, 1]);
    expect(drops).toEqual([2]);
    expect([q.length, q.bytes]).toEqual([4, 6000]);
  });

  it('over its limit drops from the head of the fattest flow, up to half its bytes', () => {
    const q = fq(4);
    const drops: number[] = [];
    q.onDrop = (p) => drops.push(p.seq);
    for (const s of [0, 1, 2, 3]) q.push(packet(s, 1500, 0), 0);
    expect(q.push(packet(10, 1500, 1), 0)).toBe(true);
    expect(drops).toEqual([0, 1]); // 3000 of flow 0's 6000 bytes
    expect(q.length).toBe(3);
    expect([q.shift(0).seq, q.shift(0).seq, q.shift(0).seq]).toEqual([2, 3, 10]);
  });

  it('is built from a queue spec, and shares a bottleneck evenly between CUBIC and BBR', () => {
    const discipline = { kind: 'fq-codel', target: 5, interval: 100, quantum: 1514 } as const;
    expect(createQueue({ kind: 'packets', limit: 1000, discipline }, new Rng(1))).toBeInstanceOf(FqCodelQueue);
    const link = rateLink(12, 20, undefined, { kind: 'packets', limit: 1000, discipline });
    const run = runScenario({ workload: 'contest', link, flows: [flow('cubic'), flow('bbr')], seed: 1, durationMs: 30_000, offset: null }, () => {
      throw new Error('no traces');
    });
    // measured 5.72 and 6.21 Mbit/s (drop-tail: 11.17 and 0.81)
    for (const f of [0, 1]) expect(Math.abs(linkMetrics(run.log, f).throughputMbps - 6) / 6).toBeLessThanOrEqual(0.2);
  });
});
