import { describe, expect, it } from 'vitest';
import { checkParam, num } from '../../shared/controllers/types.ts';
import { sweepValues } from '../../shared/scenarios/sweep.ts';
import { decimal } from '../../shared/text/decimal.ts';
import { readCommandLine, UsageError, wholeFlag } from '../../server/cli/flags.ts';
import { decodeGroup } from '../../web/state/codec.ts';

describe('numbers as people write them', () => {
  it('reads decimal notation, with a sign, a fraction, an exponent and spaces around', () => {
    const cases: [string, number][] = [
      ['5', 5],
      ['-2.5', -2.5],
      ['+7', 7],
      ['.5', 0.5],
      ['3.', 3],
      ['1e3', 1000],
      ['2.5E-1', 0.25],
      [' 42 ', 42],
      ['007', 7],
    ];
    for (const [raw, v] of cases) expect(decimal(raw), raw).toBe(v);
  });

  it('refuses what Number() reads but nobody types as a number: hex, binary, octal, Infinity, a blank, stray text', () => {
    for (const raw of ['0x10', '0b11', '0o17', 'Infinity', '-Infinity', '', '   ', '1e', 'e3', '.', '1.2.3', '5ms', '1_000', '１２']) expect(decimal(raw), raw).toBeNaN();
  });

  it('a parameter, a flag, a sweep and a link’s state all refuse a hex value, with its name', () => {
    const w = num('w', 'packets', 1, 1000, 1, 16, 'Packets in flight');
    expect(checkParam(w, '0x10')).toEqual({ error: 'w must be a whole number from 1 to 1000 packets (got "0x10")' });
    expect(checkParam(w, '16')).toEqual({ value: 16 });
    expect(() => readCommandLine(['--seed', '0x10'], [wholeFlag('seed', 'N', 1, 1000, 1, 'the seed')])).toThrow(new UsageError('--seed must be a whole number from 1 to 1000 (got "0x10")'));
    expect(sweepValues('fixed', 'w', '1,0x10')).toEqual({ error: '"1,0x10" is neither FROM..TO*FACTOR, FROM..TO+STEP nor a list of numbers' });
    expect(decodeGroup([w], new URLSearchParams('A.w=0x10'), 'A.', 'fixed').errors).toEqual(['w must be a whole number from 1 to 1000 packets (got "0x10")']);
  });
});
