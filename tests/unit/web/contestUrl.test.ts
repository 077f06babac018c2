import { pageCatalogue } from '../../../web/app/catalogue.ts';
import { describe, expect, it } from 'vitest';
import { contestLab, sweepTextFromUrl } from '../../../web/state/labs.ts';
import { decodeView, encodeView } from '../../../web/state/view.ts';

describe('the contest lab’s sweeps in a hand-typed URL', () => {
  it('read the space a query string makes of `+` as the `+` it was', () => {
    expect(sweepTextFromUrl('1..3 0.25')).toBe('1..3+0.25');
    expect(sweepTextFromUrl('0.5..0.9  0.05')).toBe('0.5..0.9+0.05');
    expect(sweepTextFromUrl('1e 2..1e 3 100')).toBe('1e+2..1e+3+100');
    // a step written with a space after its `+` is a `+` already
    for (const kept of ['2..512*2', '1..3+0.25', '1..3+ 0.25', '0.5..2+ .25', '1,2,4', 'abc']) expect(sweepTextFromUrl(kept)).toBe(kept);
  });

  it('opens `sw=bdp:gain:1..3+0.25` typed by hand without a complaint', () => {
    const opened = decodeView(contestLab(pageCatalogue()), '?view=contest-lab&sw=fixed:w:2..512*2&sw=bdp:gain:1..3+0.25');
    expect(opened.errors).toEqual([]);
    expect(opened.value.sw).toEqual([
      ['fixed', 'w', '2..512*2'],
      ['bdp', 'gain', '1..3+0.25'],
    ]);
    // the page writes its own links with the `+` escaped, so they read back as they were
    const written = encodeView('contest-lab', contestLab(pageCatalogue()), opened.value).toString();
    expect(written).toBe('view=contest-lab&sw=fixed%3Aw%3A2..512*2&sw=bdp%3Again%3A1..3%2B0.25');
    expect(decodeView(contestLab(pageCatalogue()), `?${written}`).value).toEqual(opened.value);
    // every sweep the page can hold reads back as it was written
    const spaced = { sw: [['bdp', 'gain', '1..3+ 0.25']] };
    expect(decodeView(contestLab(pageCatalogue()), `?${encodeView('contest-lab', contestLab(pageCatalogue()), spaced)}`)).toMatchObject({ value: spaced, errors: [] });
  });
});
