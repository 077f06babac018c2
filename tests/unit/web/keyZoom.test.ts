import { describe, expect, it } from 'vitest';
import { withinRun, zoomByKey } from '../../../web/charts/keyZoom.ts';

describe('zooming a chart from the keyboard', () => {
  it('+ halves the range about its middle, − doubles it, never before 0', () => {
    expect(zoomByKey('+', [1000, 5000])).toEqual([2000, 4000]);
    expect(zoomByKey('=', [1000, 5000])).toEqual([2000, 4000]);
    expect(zoomByKey('-', [2000, 4000])).toEqual([1000, 5000]);
    expect(zoomByKey('-', [0, 4000])).toEqual([0, 8000]);
  });

  it('← and → move a quarter of the width, ← stopping at 0; 0 and Escape ask for everything; other keys nothing', () => {
    expect(zoomByKey('ArrowRight', [1000, 5000])).toEqual([2000, 6000]);
    expect(zoomByKey('ArrowLeft', [1000, 5000])).toEqual([0, 4000]);
    expect(zoomByKey('ArrowLeft', [500, 4500])).toEqual([0, 4000]);
    expect([zoomByKey('0', [1, 2]), zoomByKey('Escape', [1, 2]), zoomByKey('a', [1, 2]), zoomByKey('Tab', [1, 2])]).toEqual(['all', 'all', null, null]);
  });

  it('a range is kept inside the run, its width kept; the whole run is no zoom', () => {
    expect(withinRun([8000, 12_000], 10_000)).toEqual([6000, 10_000]);
    expect(withinRun([-1000, 3000], 10_000)).toEqual([0, 4000]);
    expect(withinRun([0, 10_000], 10_000)).toBeNull();
    expect(withinRun([-5000, 15_000], 10_000)).toBeNull();
  });
});
