import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { whenPlaced } from '../../../web/charts/useOnScreen.ts';

beforeEach(() => {
  vi.stubGlobal('window', { innerWidth: 1000, innerHeight: 800 });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** A chart's box at `top` (300 px high), and a journal the test reads the order of reads and paints from. */
function chartAt(top: number, journal: string[], name: string): Element {
  return {
    getBoundingClientRect: () => {
      journal.push(`read ${name}`);
      return { top, bottom: top + 300, left: 0, right: 900 };
    },
  } as unknown as Element;
}

describe('charts asking where they are', () => {
  it('are all measured before any paints, once the effects have run', async () => {
    const journal: string[] = [];
    const near = (name: string) => () => journal.push(`paint ${name}`);
    const far = (name: string) => () => {
      journal.push(`later ${name}`);
      return () => {};
    };
    // 800 px of window plus a 200 px margin: a chart at 900 reaches into it, one at 1100 does not
    whenPlaced(chartAt(0, journal, 'top'), near('top'), far('top'));
    whenPlaced(chartAt(900, journal, 'fold'), near('fold'), far('fold'));
    whenPlaced(chartAt(1100, journal, 'below'), near('below'), far('below'));
    expect(journal).toEqual([]);
    await Promise.resolve();
    expect(journal).toEqual(['read top', 'read fold', 'read below', 'paint top', 'paint fold', 'later below']);
  });

  it('leave a chart called off before its turn unmeasured and unpainted, and call off a deferred paint', async () => {
    const journal: string[] = [];
    const cancelled: string[] = [];
    const off = whenPlaced(
      chartAt(0, journal, 'gone'),
      () => journal.push('paint gone'),
      () => () => {},
    );
    off();
    const offLater = whenPlaced(
      chartAt(2000, journal, 'below'),
      () => journal.push('paint below'),
      () => () => cancelled.push('below'),
    );
    await Promise.resolve();
    offLater();
    expect(journal).toEqual(['read below']);
    expect(cancelled).toEqual(['below']);
  });
});
