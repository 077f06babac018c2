import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodelQueue } from '../../shared/link/codel.ts';
import { DISCIPLINE_ENTRIES, disciplineParams } from '../../shared/link/disciplines.ts';
import { DropHeadQueue, DropTailQueue } from '../../shared/link/fifo.ts';
import { createQueue, type Discipline, type PacketQueue, type QueueLimit } from '../../shared/link/queue.ts';
import type { Packet } from '../../shared/net/packet.ts';
import { Rng } from '../../shared/sim/rng.ts';
import { packet } from '../helpers/capture.ts';
import { paramArb, RUNS } from './arbitraries.ts';

/** One operation on a queue: a packet of `bytes` arrives, or the head leaves; `dt` ms after the last. */
type Op = { push: true; bytes: number; dt: number } | { push: false; dt: number };

const opsArb: fc.Arbitrary<Op[]> = fc.array(
  fc.oneof(
    { weight: 3, arbitrary: fc.record({ push: fc.constant(true as const), bytes: fc.integer({ min: 1, max: 3000 }), dt: fc.integer({ min: 0, max: 20 }) }) },
    { weight: 2, arbitrary: fc.record({ push: fc.constant(false as const), dt: fc.integer({ min: 0, max: 40 }) }) },
  ),
  { maxLength: 300 },
);

/** A limit of either kind, small enough to be reached and anywhere in the schema's range. */
const limitArb: fc.Arbitrary<QueueLimit> = fc.oneof(
  fc.constant({ kind: 'infinite' } as const),
  fc.record({ kind: fc.constant('packets' as const), limit: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 1e10 })) }),
  fc.record({ kind: fc.constant('bytes' as const), limit: fc.oneof(fc.integer({ min: 1, max: 60_000 }), fc.integer({ min: 1, max: 1e10 })) }),
);

/** Any discipline of the table with any settings its parameters allow. */
const disciplineArb: fc.Arbitrary<Discipline> = fc.oneof(
  ...DISCIPLINE_ENTRIES.map((d) => fc.record(Object.fromEntries(Object.entries(d.params).map(([field, p]) => [field, paramArb(p)]))).map((settings) => ({ kind: d.kind, ...settings }) as Discipline)),
);

const limitsOf = (l: QueueLimit) => ({ packets: l.kind === 'packets' ? l.limit : Infinity, bytes: l.kind === 'bytes' ? l.limit : Infinity });

interface Played {
  now: number;
  op: Op;
  accepted?: boolean;
  delivered: readonly Packet[];
  dropped: readonly Packet[];
}

/** Plays the operations on a queue and accounts for every packet: refused, dropped after acceptance, delivered, or still queued. */
function play(q: PacketQueue, ops: readonly Op[], each: (r: Played) => void = () => {}) {
  const dropped: Packet[] = [];
  const delivered: Packet[] = [];
  const refused: Packet[] = [];
  const accepted: Packet[] = [];
  let now = 0;
  let seq = 0;
  q.onDrop = (p) => dropped.push(p);
  for (const op of ops) {
    now += op.dt;
    if (op.push) {
      const p = packet(seq++, op.bytes);
      const ok = q.push(p, now);
      (ok ? accepted : refused).push(p);
      each({ now, op, accepted: ok, delivered, dropped });
    } else if (q.length > 0) {
      delivered.push(q.shift(now));
      each({ now, op, delivered, dropped });
    }
  }
  return { dropped, delivered, refused, accepted, pushed: seq };
}

const sum = (ps: readonly Packet[]) => ps.reduce((s, p) => s + p.bytes, 0);

describe('every queue discipline, under every limit', () => {
  it('conserves packets and bytes, keeps to its limits and delivers in arrival order', () => {
    fc.assert(
      fc.property(disciplineArb, limitArb, opsArb, fc.integer({ min: 1, max: 1000 }), (discipline, limit, ops, seed) => {
        const q = createQueue({ ...limit, discipline }, new Rng(seed));
        const { packets, bytes } = limitsOf(limit);
        const r = play(q, ops, () => {
          expect(q.length).toBeLessThanOrEqual(packets);
          expect(q.bytes).toBeLessThanOrEqual(bytes);
        });
        expect(r.refused.length + r.accepted.length).toBe(r.pushed);
        // Every accepted packet was delivered, dropped on the way, or is still queued; the queue's bytes are exactly those left.
        expect(r.delivered.length + r.dropped.length + q.length).toBe(r.accepted.length);
        expect(sum(r.delivered) + sum(r.dropped) + q.bytes).toBe(sum(r.accepted));
        const order = r.delivered.map((p) => p.seq);
        expect(order).toEqual([...order].sort((a, b) => a - b));
      }),
      { ...RUNS, numRuns: 150 },
    );
  });

  it('takes exactly as many packets as its limit holds, for every discipline: a queue filled exactly to its limit is full, not over', () => {
    // RED answers the backlog itself, not a delay, and FQ-CoDel over its limit drops a batch, half the
    // fattest flow's bytes, as Linux's does (tests/unit/red.test.ts, fqCodel.test.ts)
    const limitOnly = disciplineArb.filter((d) => d.kind !== 'red' && d.kind !== 'fq-codel');
    fc.assert(
      fc.property(limitOnly, fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 3000 }), fc.boolean(), (discipline, n, size, byBytes) => {
        // All at one instant, with nothing out: no AQM has seen a delay, so only the limit refuses.
        const limit: QueueLimit = byBytes ? { kind: 'bytes', limit: n * size } : { kind: 'packets', limit: n };
        const q = createQueue({ ...limit, discipline }, new Rng(1));
        const r = play(
          q,
          Array.from({ length: n + 3 }, () => ({ push: true, bytes: size, dt: 0 }) as const),
        );
        expect([q.length, q.bytes]).toEqual([n, n * size]);
        expect(r.refused.length + r.dropped.length).toBe(3);
      }),
      RUNS,
    );
  });
});

describe('drop-tail and drop-head against their rules', () => {
  it('drop-tail accepts a packet exactly when it fits beside those queued (at the limit included)', () => {
    fc.assert(
      fc.property(limitArb, opsArb, (limit, ops) => {
        const { packets, bytes } = limitsOf(limit);
        const q = new DropTailQueue(packets, bytes);
        let [n, b] = [0, 0];
        play(q, ops, ({ op, accepted }) => {
          if (op.push) {
            expect(accepted).toBe(n + 1 <= packets && b + op.bytes <= bytes);
          }
          [n, b] = [q.length, q.bytes];
        });
      }),
      { ...RUNS, numRuns: 150 },
    );
  });

  it('drop-head takes every packet that fits alone, dropping only as many of the oldest as it must', () => {
    fc.assert(
      fc.property(limitArb, opsArb, (limit, ops) => {
        const { packets, bytes } = limitsOf(limit);
        const q = new DropHeadQueue(packets, bytes);
        const model: number[] = [];
        const fits = (list: number[]) => list.length <= packets && list.reduce((s, x) => s + x, 0) <= bytes;
        play(q, ops, ({ op, accepted }) => {
          if (!op.push) model.shift();
          else if (accepted) {
            model.push(op.bytes);
            while (!fits(model)) model.shift();
          }
          if (op.push) expect(accepted).toBe(op.bytes <= bytes && packets >= 1);
          expect([q.length, q.bytes]).toEqual([model.length, model.reduce((s, x) => s + x, 0)]);
        });
      }),
      { ...RUNS, numRuns: 150 },
    );
  });
});

describe('AQMs against the rules they state', () => {
  it('CoDel drops nothing before a packet left after a sojourn of at least target, and an interval passed', () => {
    const codel = DISCIPLINE_ENTRIES.find((d) => d.kind === 'codel')!;
    const [targetArb, intervalArb] = disciplineParams(codel).map(paramArb);
    fc.assert(
      fc.property(targetArb, intervalArb, opsArb, (target, interval, ops) => {
        const q = new CodelQueue(Infinity, Infinity, Number(target), Number(interval));
        const arrivals = new Map<number, number>();
        let firstAbove = Infinity;
        play(q, ops, ({ now, op, delivered, dropped }) => {
          if (op.push) arrivals.set(arrivals.size, now);
          else {
            const last = delivered[delivered.length - 1];
            if (now - arrivals.get(last.seq)! >= Number(target)) firstAbove = Math.min(firstAbove, now);
          }
          if (dropped.length > 0) expect(now).toBeGreaterThanOrEqual(firstAbove + Number(interval));
        });
      }),
      RUNS,
    );
  });

  it('CoDel on a standing queue: the first drops come an interval after the sojourn reached target, then at interval/√count', () => {
    const codel = DISCIPLINE_ENTRIES.find((d) => d.kind === 'codel')!;
    const [targetArb, intervalArb] = disciplineParams(codel).map(paramArb);
    fc.assert(
      fc.property(targetArb, intervalArb, fc.integer({ min: 1, max: 20 }), (targetRaw, intervalRaw, gap) => {
        const [target, interval] = [Number(targetRaw), Number(intervalRaw)];
        // Everything arrives at 0 and one packet leaves every `gap` ms: the k-th leaves after a sojourn of k·gap.
        const first = Math.ceil(target / gap) * gap;
        const at = (t: number) => Math.ceil(t / gap) * gap;
        // Dropping starts at the first departure an interval on; the next drops are due interval, then interval/√2, later (several may fall on one departure).
        const due1 = at(first + interval) + interval;
        const due2 = due1 + Math.floor(interval / Math.SQRT2);
        const expected = [at(first + interval), at(due1), Math.max(at(due1), at(due2))];
        const shifts = expected[2] / gap + 2;
        const q = new CodelQueue(Infinity, Infinity, target, interval);
        const drops: number[] = [];
        q.onDrop = (_p, now) => drops.push(now);
        for (let i = 0; i < shifts + 10; i++) q.push(packet(i), 0);
        for (let k = 1; k <= shifts && drops.length < 3; k++) q.shift(k * gap);
        expect(drops.slice(0, 3)).toEqual(expected);
      }),
      RUNS,
    );
  });
});
