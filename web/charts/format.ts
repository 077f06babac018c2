import { format, precisionFixed, precisionRound } from 'd3-format';

const three = format('.3~s');

/** Milliseconds on a time axis, as seconds. */
export const seconds = (ms: number) => `${format('.3~f')(ms / 1000)} s`;
/** Axis numbers: SI prefixes for large values (12k, 1.5M), plain decimals below 1000 (0.8, not 800m). */
export const num = (v: number) => (!Number.isFinite(v) ? '—' : Math.abs(v) >= 1000 ? three(v) : format('.3~r')(v));
export const fixed = (v: number, digits: number) => (Number.isFinite(v) ? v.toFixed(digits) : '—');
/** A bit rate in the unit that reads best: 56.6 kbit/s, 12 Mbit/s (never 56.599999999999994). */
export const bitrate = (mbps: number) => (mbps >= 1 ? `${format('.4~r')(mbps)} Mbit/s` : `${format('.4~r')(mbps * 1000)} kbit/s`);

/**
 * The labels of one axis's ticks, with as many digits as the ticks' spacing needs, so neighbouring ticks
 * never read the same (14k, 14.2k, 14.4k rather than 14k 14k 14k).
 */
export function tickFormat(ticks: readonly number[]): (v: number) => string {
  const step = ticks.length > 1 ? Math.abs(ticks[1] - ticks[0]) : 0;
  const largest = Math.max(0, ...ticks.map(Math.abs));
  if (!(step > 0) || !Number.isFinite(step)) return num;
  if (largest >= 1000) {
    const p = precisionRound(step, largest);
    return (v) => (Number.isFinite(v) ? format(`.${p}~s`)(v) : '—');
  }
  const p = precisionFixed(step);
  return (v) => (Number.isFinite(v) ? format(`.${p}~f`)(v) : '—');
}
