import { describe, expect, it } from 'vitest';
import { findScheme } from '../../shared/controllers/registry.ts';
import { ESTIMATE, K } from '../../shared/log/kinds.ts';
import { summarize } from '../../shared/metrics/summary.ts';
import { contest, flow } from '../../shared/scenarios/presets.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import { loadTrace } from '../../server/traces.ts';

describe('CUBIC on the contest’s infinite queue', () => {
  it('leaves slow start by HyStart, then grows all run with no loss and no timeout, as its help says', () => {
    const r = runScenario(contest('Verizon-LTE-short', [flow('cubic')]), loadTrace);
    const c = r.log.columns;
    let ssthresh = Infinity;
    let timeouts = 0;
    let drops = 0;
    const windowAt: number[] = [];
    for (let i = 0; i < r.log.length; i++) {
      const kind = c.kind[i];
      if (kind === K.estimate && c.seq[i] === ESTIMATE.ssthresh && ssthresh === Infinity) ssthresh = c.value[i];
      if (kind === K.timeout) timeouts++;
      if (kind === K.drop) drops++;
      if (kind === K.ack) windowAt[Math.floor(c.t[i] / 10_000)] = c.window[i];
    }
    expect(ssthresh).toBeLessThan(1000); // HyStart ended slow start early on
    expect(timeouts).toBe(0);
    expect(drops).toBe(0);
    // nothing but a loss bounds the curve: every ten seconds the window is larger than ten seconds before
    for (let k = 1; k < 14; k++) expect(windowAt[k]).toBeGreaterThan(windowAt[k - 1]);
    const delay95 = summarize(r).all.delay95;
    expect(findScheme('cubic')!.doc).toContain(`delay95 ${(delay95 / 1000).toFixed(1)} s`);
  });
});
