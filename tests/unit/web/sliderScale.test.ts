import { describe, expect, it } from 'vitest';
import { num } from '../../../shared/controllers/types.ts';
import { sliderScale } from '../../../web/components/sliderScale.ts';

describe('slider scales', () => {
  const delay = sliderScale(num('delay', 'ms', 0, 5000, 1, 20, ''));
  it('wide ranges slide on a log scale of the distance from the minimum', () => {
    expect(delay.log).toBe(true);
    expect(delay.toSlider(0)).toBe(0);
    expect(delay.toSlider(5000)).toBeCloseTo(Math.log(5001), 12);
    // The slider's middle is √5001 − 1 ≈ 70 ms, not 2,500 ms.
    expect(delay.fromSlider(Math.log(5001) / 2)).toBe(70);
    for (const v of [0, 1, 20, 333, 5000]) expect(delay.fromSlider(delay.toSlider(v))).toBe(v);
  });

  it('windows 1–1,000 too; narrow ranges stay linear and snap to the step', () => {
    const w = sliderScale(num('w', 'packets', 1, 1000, 1, 16, ''));
    expect(w.log).toBe(true);
    expect(w.fromSlider(w.toSlider(16))).toBe(16);
    const timeout = sliderScale(num('timeout', 'ms', 20, 1000, 10, 1000, ''));
    expect(timeout.log).toBe(false);
    expect(timeout.fromSlider(404)).toBe(400);
    expect(timeout.fromSlider(2000)).toBe(1000);
    const b = sliderScale(num('b', '', 0.05, 0.95, 0.05, 0.5, ''));
    expect(b.fromSlider(0.33)).toBe(0.35);
  });
});
