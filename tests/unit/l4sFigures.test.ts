import { describe, expect, it } from 'vitest';
import type { Discipline } from '../../shared/link/disciplines.ts';
import { K } from '../../shared/log/kinds.ts';
import { linkMetrics } from '../../shared/metrics/linkMetrics.ts';
import { flow, rateLink } from '../../shared/scenarios/presets.ts';
import { runScenario } from '../../shared/scenarios/run.ts';

/**
 * The figures the README states for ECN and L4S: long-lived flows from t = 0 on one 12 Mbit/s
 * bottleneck, 20 ms each way, a 1000-packet queue, seed 1.
 */
function run(discipline: Discipline, schemes: string[], seconds: number, ecn = true) {
  const link = { ...rateLink(12, 20, undefined, { kind: 'packets', limit: 1000, discipline }), ecn };
  return runScenario({ workload: 'contest', link, flows: schemes.map((s) => flow(s)), seed: 1, durationMs: seconds * 1000, offset: null }, () => {
    throw new Error('no traces');
  });
}

const DUALPI2: Discipline = { kind: 'dualpi2', target: 15, step: 1, k: 2 };
const CODEL: Discipline = { kind: 'codel', target: 5, interval: 100 };

describe('ECN and L4S figures', () => {
  it('DCTCP on DualPI2 keeps the queueing delay’s 95th percentile within a few ms at ≥ 90% of the rate', () => {
    const m = linkMetrics(run(DUALPI2, ['dctcp'], 30).log);
    expect(m.throughputMbps).toBeGreaterThanOrEqual(0.9 * 12); // measured 11.43
    expect(m.queueDelay95).toBeLessThanOrEqual(4); // measured 2.95 ms (one packet's 1 ms of service included)
  });

  it('Prague and CUBIC sharing DualPI2 get rates within 3× of each other; on one classic ECN queue (CoDel) Prague takes far more', () => {
    const shares = (r: ReturnType<typeof run>) => [0, 1].map((f) => linkMetrics(r.log, f).throughputMbps);
    // measured 3.64 and 8.32: at 12 Mbit/s a classic packet served first (1 ms) puts an L packet past the
    // 1 ms step, which Linux's default marks even when the packet is alone in the L queue
    const [pDual, cDual] = shares(run(DUALPI2, ['prague', 'cubic'], 60));
    expect(Math.max(pDual, cDual) / Math.min(pDual, cDual)).toBeLessThanOrEqual(3);
    const [pCodel, cCodel] = shares(run(CODEL, ['prague', 'cubic'], 60)); // measured 10.78 and 1.19
    expect(pCodel / cCodel).toBeGreaterThanOrEqual(4);
  });

  it('without ECN DualPI2 is one classic PI2 queue: it drops, and marks nothing', () => {
    const r = run(DUALPI2, ['dctcp'], 10, false);
    let marks = 0;
    for (let i = 0; i < r.log.length; i++) if (r.log.columns.kind[i] === K.mark) marks++;
    expect(marks).toBe(0);
    expect(linkMetrics(r.log).drops).toBeGreaterThan(0);
  });
});
