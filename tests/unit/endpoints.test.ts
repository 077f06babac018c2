import { describe, expect, it } from 'vitest';
import { K } from '../../shared/log/kinds.ts';
import { NO_IMPAIRMENTS } from '../../shared/link/impairments.ts';
import { flow, rateLink } from '../../shared/scenarios/presets.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import type { ScenarioSpec } from '../../shared/scenarios/spec.ts';

const noTraces = () => {
  throw new Error('no traces here');
};

const rows = (run: ReturnType<typeof runScenario>, kind: number) => {
  const c = run.log.columns;
  const out: { t: number; seq: number; value: number; window: number }[] = [];
  for (let i = 0; i < run.log.length; i++) if (c.kind[i] === kind) out.push({ t: c.t[i], seq: c.seq[i], value: c.value[i], window: c.window[i] });
  return out;
};

describe('contest sender and receiver', () => {
  // 12 Mbit/s: a 1500-byte packet takes 1 ms, an 80-byte ACK 80/1500 ms; 10 ms each way.
  const spec = (scheme: string, params = {}, durationMs = 30): ScenarioSpec => ({
    workload: 'contest',
    link: rateLink(12, 10),
    flows: [flow(scheme, params)],
    seed: 1,
    durationMs,
    offset: null,
  });

  it('a 3-packet flight: sends, bottleneck departures, deliveries and ACKs at hand-computed times', () => {
    const run = runScenario(spec('fixed', { w: 3 }), noTraces);
    expect(rows(run, K.send).slice(0, 4).map((r) => r.t)).toEqual([0, 0, 0, 21 + 80 / 1500]);
    expect(rows(run, K.depart).slice(0, 3).map((r) => [r.t, r.value])).toEqual([[1, 1], [2, 2], [3, 3]]);
    expect(rows(run, K.deliver).slice(0, 3).map((r) => r.t)).toEqual([11, 12, 13]);
    const acks = rows(run, K.ack).slice(0, 3);
    expect(acks.map((r) => r.seq)).toEqual([0, 1, 2]);
    expect(acks[0].t).toBeCloseTo(21 + 80 / 1500, 9);
    expect(acks[0].value).toBeCloseTo(21 + 80 / 1500, 4); // RTT, stored as float32
    expect(acks[2].t).toBeCloseTo(23 + 80 / 1500, 9);
  });

  it('keeps seq − next ACK expected below the window', () => {
    const run = runScenario(spec('fixed', { w: 5 }, 2000), noTraces);
    const inFlight = rows(run, K.send).map((r) => r.value); // in flight once the packet is out
    expect(Math.max(...inFlight)).toBe(5);
  });

  it('sends one packet per timeout when no ACK comes back', () => {
    const s = spec('fixed', { w: 2 }, 3500);
    s.link.forward = { ...NO_IMPAIRMENTS, loss: 1 };
    const run = runScenario(s, noTraces);
    expect(rows(run, K.send).map((r) => r.t)).toEqual([0, 0, 1000, 2000, 3000]);
    expect(rows(run, K.timeout).map((r) => r.t)).toEqual([1000, 2000, 3000]);
  });
});

describe('reliable transfer', () => {
  const spec = (bytes: number, loss: number, seed = 1): ScenarioSpec => ({
    workload: 'reliable',
    link: rateLink(1, 10, { ...NO_IMPAIRMENTS, loss }),
    flows: [flow('reno', {}, 0, bytes)],
    seed,
    durationMs: 600_000,
    offset: null,
  });

  it('delivers every byte over a clean link with no retransmission', () => {
    const run = runScenario(spec(10_000, 0), noTraces);
    expect(run.flows[0].exact).toBe(true);
    expect(run.flows[0].retransmissions).toBe(0);
    expect(run.flows[0].bytesOnWire).toBe(10_000 + 7 * 52);
  });

  it('repairs losses with fast retransmit and timeouts, and still delivers exactly', () => {
    const run = runScenario(spec(200_000, 0.05), noTraces);
    expect(run.flows[0].exact).toBe(true);
    expect(run.flows[0].retransmissions).toBeGreaterThan(0);
    expect(rows(run, K.retransmit).length).toBe(run.flows[0].retransmissions);
  });

  it('cumulative ACKs: duplicates repeat the next byte expected while a hole is open', () => {
    const run = runScenario(spec(100_000, 0.05, 3), noTraces);
    const acks = rows(run, K.ack).map((a) => a.seq);
    let dups = 0;
    for (let i = 1; i < acks.length; i++) {
      expect(acks[i]).toBeGreaterThanOrEqual(acks[i - 1] - 0); // never goes back except reordered ACKs
      if (acks[i] === acks[i - 1]) dups++;
    }
    expect(dups).toBeGreaterThan(0);
  });
});
