import { describe, expect, it } from 'vitest';
import { BaseController, choice, defineScheme, num } from '../../shared/controllers/types.ts';

class Probe extends BaseController {
  constructor(
    readonly w: number,
    readonly mode: 'a' | 'b',
  ) {
    super();
  }
  windowSize(): number {
    return this.w;
  }
}

describe('defineScheme', () => {
  it('hands create typed values: a number per number parameter, the literal choices per choice', () => {
    const s = defineScheme({
      id: 'probe',
      title: 'Probe',
      doc: '',
      mode: 'window',
      params: [num('w', 'packets', 1, 10, 1, 3, ''), choice('mode', ['a', 'b'], 'a', '')],
      create: (p) => new Probe(p.w, p.mode),
    });
    const c = s.create({ w: 4, mode: 'b' }) as Probe;
    expect([c.w, c.mode]).toEqual([4, 'b']);
  });

  it('refuses at compile time a parameter that is not in the schema (tsc checks the directives below)', () => {
    const make = () =>
      defineScheme({
        id: 'probe',
        title: 'Probe',
        doc: '',
        mode: 'window',
        params: [num('window', 'packets', 1, 10, 1, 3, '')],
        // @ts-expect-error: the parameter is called "window" now
        create: (p) => new Probe(p.w, 'a'),
      });
    expect(make().params.map((p) => p.name)).toEqual(['window']);
    // @ts-expect-error: a choice's default must be one of its choices
    expect(choice('mode', ['a', 'b'], 'c', '').default).toBe('c');
  });
});
