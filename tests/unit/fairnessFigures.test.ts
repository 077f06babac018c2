import { describe, expect, it } from 'vitest';
import { summarize } from '../../shared/metrics/summary.ts';
import { DATA_BYTES } from '../../shared/net/packet.ts';
import { FAIRNESS_MBPS, fairnessLink, fairnessSpec, fairShares } from '../../shared/scenarios/bulk.ts';
import { runScenario } from '../../shared/scenarios/run.ts';

/**
 * The fairness grid's figures the README states for BBR v1 against CUBIC (its defaults: a minute on
 * 50 Mbit/s, 25 ms each way, seed 1), as `npm run sim -- --scenario fairness` and the page print them.
 */
function shares(a: string, b: string, queuePackets: number): string[] {
  const spec = fairnessSpec(a, b, { ...fairnessLink(), queue: { kind: 'packets', limit: queuePackets } });
  const summary = summarize(
    runScenario(spec, () => {
      throw new Error('no traces');
    }),
  );
  return fairShares(summary, FAIRNESS_MBPS, spec.durationMs, DATA_BYTES).map((s) => s.toFixed(2));
}

describe("the fairness grid's figures in the README", () => {
  it('one BBR flow takes 1.75 of its fair share against CUBIC’s 0.18 in half a BDP of drop-tail, and 1.88 against 0.06 in 20 packets', () => {
    expect(shares('bbr', 'cubic', 104)).toEqual(['1.75', '0.18']);
    expect(shares('bbr', 'cubic', 20)).toEqual(['1.88', '0.06']);
  });

  it('CUBIC first, as the page’s grid runs the pair, reads 0.19 against 1.75, and 0.06 against 1.86 in 20 packets', () => {
    expect(shares('cubic', 'bbr', 104)).toEqual(['0.19', '1.75']);
    expect(shares('cubic', 'bbr', 20)).toEqual(['0.06', '1.86']);
  });
});
