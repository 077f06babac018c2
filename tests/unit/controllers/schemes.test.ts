import { describe, expect, it } from 'vitest';
import { SCHEMES } from '../../../shared/controllers/registry.ts';
import { withDefaults } from '../../../shared/controllers/types.ts';
import { Rng } from '../../../shared/sim/rng.ts';

/**
 * Each scheme's table is a contract: its parameters' names are the keys of shared links and the CLI's
 * --set, their ranges what the sliders, flags and links accept, and its title, docs and units what the
 * page, --help and the guide say. The snapshot makes every change to them one that is seen.
 */
describe('the built-in schemes', () => {
  it('keep their tables: id, title, doc, mode and each parameter’s name, unit, range, step, default and doc', async () => {
    const table = SCHEMES.map((s) => ({ id: s.id, title: s.title, doc: s.doc, mode: s.mode, params: s.params }));
    await expect(`${JSON.stringify(table, null, 2)}\n`).toMatchFileSnapshot('./__snapshots__/schemes.json');
  });

  it('each makes a controller at its defaults, with a window of at least one packet and a timeout', () => {
    for (const s of SCHEMES) {
      const c = s.create(withDefaults(s.params), new Rng(1));
      expect(c.windowSize(), s.id).toBeGreaterThanOrEqual(1);
      expect(c.timeoutMs(), s.id).toBeGreaterThan(0);
    }
  });
});
