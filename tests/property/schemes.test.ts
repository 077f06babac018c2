import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SCHEMES } from '../../shared/controllers/registry.ts';
import { withDefaults, type Controller } from '../../shared/controllers/types.ts';
import { Rng } from '../../shared/sim/rng.ts';
import { drive, RUNS, runArb } from './arbitraries.ts';

/** What every controller keeps, whatever its parameters and whatever happens to its packets. */
function bounded(c: Controller): void {
  const w = c.windowSize();
  // The skeleton's sender sends at least one packet whatever the window says (wholePackets), so a window may read below one.
  expect(Number.isFinite(w) && w >= 0, `window ${w}`).toBe(true);
  const burst = c.burstSize();
  expect(Number.isInteger(burst) && burst >= 1, `burst ${burst}`).toBe(true);
  const rate = c.pacingRate();
  expect(rate > 0, `pacing rate ${rate}`).toBe(true);
  const t = c.timeoutMs();
  expect(Number.isFinite(t) && t > 0, `timeout ${t}`).toBe(true);
}

describe('every scheme over its whole parameter range', () => {
  for (const scheme of SCHEMES) {
    it(`${scheme.id}: a finite window, a burst of at least one request, a positive rate and a finite timer, after every event`, () => {
      fc.assert(
        fc.property(runArb(scheme), ([params, steps]) => {
          const c = scheme.create(withDefaults(scheme.params, params), new Rng(7));
          bounded(c);
          drive(c, steps, bounded);
        }),
        { ...RUNS, numRuns: 25 },
      );
    });
  }
});
