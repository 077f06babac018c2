import { describe, expect, it } from 'vitest';
import { formatTraceCsv, parseTraceCsv } from '../../shared/csv/trace.ts';
import { CodelQueue } from '../../shared/link/codel.ts';
import { PieQueue } from '../../shared/link/pie.ts';
import { EventLog } from '../../shared/log/eventLog.ts';
import { DROP, K } from '../../shared/log/kinds.ts';
import { runSeries } from '../../shared/metrics/series.ts';
import { chartsOf } from '../../web/app/layers.ts';
import { eventMarks } from '../../web/charts/events.ts';
import { linkMetrics } from '../../shared/metrics/linkMetrics.ts';
import { ECN, type Packet } from '../../shared/net/packet.ts';
import { flow, rateLink } from '../../shared/scenarios/presets.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import type { Rng } from '../../shared/sim/rng.ts';
import { packet } from '../helpers/capture.ts';

const ect0 = (seq: number): Packet => Object.assign(packet(seq), { ecn: ECN.ect0 });

function recording<Q extends { onDrop: (p: Packet, now: number) => void; onMark: (p: Packet, now: number) => void }>(q: Q) {
  const drops: number[] = [];
  const marks: number[] = [];
  q.onDrop = (p) => drops.push(p.seq);
  q.onMark = (p) => marks.push(p.seq);
  return { q, drops, marks };
}

describe('CoDel with ECN (codel_impl.h)', () => {
  it('marks the head packet CE where it would drop, at the same times, and hands it out', () => {
    const { q, drops, marks } = recording(new CodelQueue(Infinity, Infinity, 5, 100, true));
    for (let s = 0; s < 10; s++) q.push(ect0(s), 0);
    // 110: an interval above target, mark 2 (count 1, next at 210); 210: mark 4 (count 2, next 210 + ⌊100/√2⌋ = 280);
    // 280: mark 5 (count 3). Without ECN the same queue drops 3, 6 and 8 (queues.test.ts).
    const out = [10, 50, 110, 150, 210, 280].map((t) => q.shift(t));
    expect(out.map((p) => p.seq)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(marks).toEqual([2, 4, 5]);
    expect(out.map((p) => p.ecn)).toEqual([ECN.ect0, ECN.ect0, ECN.ce, ECN.ect0, ECN.ce, ECN.ce]);
    expect(drops).toEqual([]);
  });

  it('still drops Not-ECT packets with ECN on, in Linux’s order: the packet judged, the next handed out', () => {
    const { q, drops, marks } = recording(new CodelQueue(Infinity, Infinity, 5, 100, true));
    for (let s = 0; s < 10; s++) q.push(packet(s), 0);
    // 110: 2 judged and dropped, 3 out (next drop at 210); 210: 5 dropped, 6 out (next at 280); 280: 7 dropped, 8 out.
    // Without ECN, Mahimahi's order hands out the packet judged and drops 3, 6 and 8 (queues.test.ts).
    expect([10, 50, 110, 150, 210, 280].map((t) => q.shift(t).seq)).toEqual([0, 1, 3, 4, 6, 8]);
    expect(drops).toEqual([2, 5, 7]);
    expect(marks).toEqual([]);
  });

  it('drops only Not-ECT packets and marks only ECN-capable ones when the two are mixed', () => {
    const { q, drops, marks } = recording(new CodelQueue(Infinity, Infinity, 5, 100, true));
    for (let s = 0; s < 10; s++) q.push(s % 2 ? ect0(s) : packet(s), 0);
    // 110: 2 (Not-ECT) judged and dropped, 3 out; 210: 5 (ECT) judged and marked; 280: 6 dropped, 7 out
    expect([10, 50, 110, 150, 210, 280].map((t) => q.shift(t).seq)).toEqual([0, 1, 3, 4, 5, 7]);
    expect(drops).toEqual([2, 6]);
    expect(marks).toEqual([5]);
  });
});

describe('PIE with ECN (sch_pie.c)', () => {
  /** The departure rate measured at 1654 bytes/ms and a first update to 9.125/128, as in queues.test.ts. */
  function warmed(draw: { value: number }) {
    const r = recording(new PieQueue(Infinity, Infinity, 15, 0, { next: () => draw.value } as unknown as Rng, true));
    for (let s = 0; s < 20; s++) r.q.push(packet(s), 0);
    for (let t = 1; t <= 11; t++) r.q.shift(t);
    return r;
  }

  it('marks an ECN-capable packet it would drop while the probability is at most 10%, and drops a Not-ECT one', () => {
    const draw = { value: 0.5 };
    const { q, marks } = warmed(draw);
    expect(q.push(packet(20), 31)).toBe(true);
    draw.value = 0.05;
    const p21 = ect0(21);
    expect(q.push(p21, 61)).toBe(true); // p = 9.125/128 + 0.5/32 ≈ 0.087 ≤ 0.1 and 0.05 < p: marked, queued
    expect(q.probability).toBe(9.125 / 128 + 0.5 / 32);
    expect(p21.ecn).toBe(ECN.ce);
    expect(q.push(packet(22), 62)).toBe(false); // Not-ECT: dropped
    expect(marks).toEqual([21]);
  });

  it('drops ECN-capable packets too once the probability is above 10%', () => {
    const draw = { value: 0.99 };
    const { q, marks } = warmed(draw);
    expect(q.push(packet(20), 31)).toBe(true);
    for (let s = 21; s < 1022; s++) q.push(packet(s), 31);
    expect(q.push(ect0(1022), 61)).toBe(false); // p = 1
    expect(q.probability).toBe(1);
    expect(marks).toEqual([]);
  });
});

describe('CE marks in the trace CSV', () => {
  it('a mark is a row of kind "mark", value the queue length, and reads back', () => {
    const log = new EventLog();
    log.push(7, K.mark, 0, 3, 1500, 4, 0);
    const text = formatTraceCsv(log, null);
    expect(text.split('\n')[3]).toBe('7,0,mark,3,1500,0,4,');
    const back = parseTraceCsv(text).log;
    expect([back.length, back.columns.kind[0], back.columns.value[0]]).toEqual([1, K.mark, 4]);
  });
});

describe('CE marks on the charts', () => {
  it('the series keeps marks as (t, seq) pairs, and every time chart ticks them', () => {
    const log = new EventLog();
    log.push(0, K.send, 0, 0, 1500, 1, 4);
    log.push(7, K.mark, 0, 0, 1500, 3, 0);
    log.push(20, K.ack, 0, 0, 80, 20, 4);
    const s = runSeries(log, 100, null);
    expect(Array.from(s.marks)).toEqual([7, 0]);
    expect(eventMarks(s).map((m) => [m.label, Array.from(m.data)])).toEqual([['CE mark', [7, 0]]]);
    for (const c of chartsOf(s, false, null)) expect(c.layers.filter((l) => l.kind === 'marks').map((l) => l.label)).toEqual(['CE mark']);
  });
});

describe('ECN end to end', () => {
  const codel = { kind: 'infinite', discipline: { kind: 'codel', target: 5, interval: 100 } } as const;
  const run = (scheme: string, ecn: boolean) =>
    runScenario({ workload: 'contest', link: { ...rateLink(12, 20, undefined, codel), ecn }, flows: [flow(scheme, {})], seed: 1, durationMs: 5000, offset: null }, () => {
      throw new Error('no traces');
    });
  const count = (r: ReturnType<typeof run>, kind: number, value?: number) => {
    let n = 0;
    for (let i = 0; i < r.log.length; i++) if (r.log.columns.kind[i] === kind && (value === undefined || r.log.columns.value[i] === value)) n++;
    return n;
  };

  it('Reno over CoDel with ECN on: CoDel marks instead of dropping, and Reno backs off on the echo', () => {
    const on = run('reno', true);
    const off = run('reno', false);
    expect(count(off, K.drop, DROP.aqm)).toBeGreaterThan(0);
    expect(count(off, K.mark)).toBe(0);
    expect(count(on, K.drop, DROP.aqm)).toBe(0);
    expect(count(on, K.mark)).toBeGreaterThan(0);
    // the echo halves the window: the queue stays near CoDel's target, not growing without bound
    expect(linkMetrics(on.log).queueDelay95).toBeLessThan(50);
  });

  it('a scheme that declares no ECN sends Not-ECT, so CoDel drops it with ECN on', () => {
    const on = run('aimd', true);
    expect(count(on, K.mark)).toBe(0);
    expect(count(on, K.drop, DROP.aqm)).toBeGreaterThan(0);
  });
});
