import type { NumberParam } from '../../shared/controllers/types.ts';

/**
 * Ranges spanning about a thousand steps or more (delay 0–5,000 ms, windows 1–1,000) slide on a
 * log scale of the distance from the minimum, so small values stay reachable.
 */
export function sliderScale(spec: NumberParam): { toSlider(v: number): number; fromSlider(s: number): number; log: boolean } {
  const log = (spec.max - spec.min) / spec.step >= 900;
  const snap = (raw: number) => {
    const stepped = spec.min + Math.round((raw - spec.min) / spec.step) * spec.step;
    return Math.min(spec.max, Math.max(spec.min, Number(stepped.toPrecision(10))));
  };
  if (!log) return { toSlider: (v) => v, fromSlider: snap, log };
  return { toSlider: (v) => Math.log1p((v - spec.min) / spec.step), fromSlider: (s) => snap(spec.min + Math.expm1(s) * spec.step), log };
}
