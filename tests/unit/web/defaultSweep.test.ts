import { describe, expect, it } from 'vitest';
import { SCHEMES } from '../../../shared/controllers/registry.ts';
import { sweepValues, sweepValuesOf } from '../../../shared/scenarios/sweep.ts';
import { defaultSweep } from '../../../web/labs/contest/SweepSettings.tsx';

describe('a sweep chosen in the contest lab', () => {
  it('doubles across a range of octaves, and steps an eighth through a narrow one', () => {
    expect(defaultSweep('cubic', 'beta')).toEqual({ scheme: 'cubic', param: 'beta', values: '0.5..0.9+0.05' });
    expect(sweepValues('cubic', 'beta', '0.5..0.9+0.05')).toEqual([0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9]);
  });

  it('every numeric parameter of every scheme sweeps at least four values by default', () => {
    for (const s of SCHEMES)
      for (const p of s.params) {
        if (p.kind !== 'number') continue;
        const d = defaultSweep(s.id, p.name);
        const values = sweepValues(s.id, p.name, d.values);
        expect('error' in values ? values.error : values.length, `${s.id}.${p.name}: ${d.values}`).toBeGreaterThanOrEqual(4);
      }
  });

  it('a choice parameter sweeps all its choices by default, each named once, and refuses a name it does not have', () => {
    expect(defaultSweep('aimd', 'decrease')).toEqual({ scheme: 'aimd', param: 'decrease', values: 'multiplicative,sqrt,quartic' });
    expect(sweepValuesOf('aimd', 'decrease', ' sqrt , multiplicative,sqrt', SCHEMES)).toEqual(['sqrt', 'multiplicative']);
    expect(sweepValuesOf('aimd', 'increase', 'a/w,halve', SCHEMES)).toEqual({ error: 'increase must be one of a/w, a/w2 (got "halve")' });
    // a number parameter reads as before
    expect(sweepValuesOf('aimd', 'a', '1,2', SCHEMES)).toEqual([1, 2]);
  });
});
