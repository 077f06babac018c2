import { describe, expect, it } from 'vitest';
import { SCHEMES } from '../../shared/controllers/registry.ts';
import { DROP, K } from '../../shared/log/kinds.ts';
import { flow, rateLink } from '../../shared/scenarios/presets.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import type { ScenarioSpec } from '../../shared/scenarios/spec.ts';
import { Rng } from '../../shared/sim/rng.ts';
import { constantRateTrace } from '../../shared/trace/mahimahi.ts';

const DATA_DROPS = new Set([DROP.queue, DROP.loss, DROP['burst-loss']]);
const windowSchemes = SCHEMES.filter((s) => s.mode === 'window').map((s) => s.id);

/** A random experiment drawn from `rng`: link kind, queue, impairments, flows, workload. */
function randomSpec(rng: Rng, seed: number): ScenarioSpec {
  const pick = <T>(xs: readonly T[]) => xs[rng.int(xs.length)];
  const impair = () => ({
    loss: rng.chance(0.5) ? rng.uniform(0, 0.1) : 0,
    burst: rng.chance(0.3) ? { p: rng.uniform(0, 0.05), r: rng.uniform(0.2, 0.8), lossBad: rng.uniform(0.3, 1) } : null,
    duplicate: rng.chance(0.4) ? rng.uniform(0, 0.1) : 0,
    reorder: rng.chance(0.4) ? rng.uniform(0, 0.2) : 0,
    jitter: rng.chance(0.4) ? rng.uniform(0, 10) : 0,
  });
  const trace = rng.chance(0.5);
  const link = rateLink(
    rng.uniform(0.5, 20),
    rng.uniform(1, 40),
    impair(),
    pick([{ kind: 'infinite' }, { kind: 'packets', limit: 1 + rng.int(60) }, { kind: 'bytes', limit: 2000 + rng.int(80_000) }] as const),
  );
  link.reverse = impair();
  if (trace) Object.assign(link, { kind: 'trace', trace: 'fwd', ackTrace: 'rev', once: rng.chance(0.3) });
  const reliable = rng.chance(0.5);
  const n = 1 + rng.int(4);
  return {
    workload: reliable ? 'reliable' : 'contest',
    link,
    flows: Array.from({ length: n }, (_, i) => flow(pick(windowSchemes), {}, rng.int(500) * i, reliable ? 1 + rng.int(300_000) : null)),
    seed,
    durationMs: 1000 + rng.int(4000),
    offset: null,
  };
}

describe('conservation (property)', () => {
  it('every data packet that enters the path is delivered, dropped, or still in the network', () => {
    const rng = new Rng(42, 'property');
    const traces = { fwd: constantRateTrace(6), rev: constantRateTrace(3) };
    for (let trial = 0; trial < 60; trial++) {
      const spec = randomSpec(rng, trial);
      const run = runScenario(spec, (name) => traces[name as 'fwd' | 'rev']);
      const c = run.log.columns;
      let entered = 0;
      let left = 0;
      for (let i = 0; i < run.log.length; i++) {
        const k = c.kind[i];
        if (k === K.send || k === K.retransmit) entered++;
        else if (k === K.duplicate && c.value[i] === 0) entered++;
        else if (k === K.deliver) left++;
        else if (k === K.drop && DATA_DROPS.has(c.value[i])) left++;
      }
      expect(entered, `trial ${trial}: ${JSON.stringify(spec)}`).toBe(left + run.inNetwork);
      if (spec.workload === 'reliable') {
        for (const f of run.flows) if (f.finishedAt >= 0) expect(f.exact, `trial ${trial} flow ${f.flow}`).toBe(true);
      }
    }
  });
});
