import { format, precisionFixed, precisionRound } from 'd3-format';

export { fixed, significant } from '../../shared/text/figures.ts';

/** d3's formatter for a specifier, made once: parsing a specifier costs more than formatting a number. */
const formats = new Map<string, (v: number) => string>();
function formatOf(spec: string): (v: number) => string {
  let f = formats.get(spec);
  if (!f) formats.set(spec, (f = format(spec)));
  return f;
}

/** Milliseconds on a time axis, as seconds. */
export const seconds = (ms: number) => `${formatOf('.3~f')(ms / 1000)} s`;
/** Axis numbers: SI prefixes for large values (12k, 1.5M), plain decimals below 1000 (0.8, not 800m). */
export const num = (v: number) => (!Number.isFinite(v) ? '—' : Math.abs(v) >= 1000 ? formatOf('.3~s')(v) : formatOf('.3~r')(v));
/** A unit of bit rate: its name, and how many of it make one Mbit/s. */
export interface RateUnit {
  label: string;
  perMbps: number;
}

/** The unit a rate reads best in: kbit/s below 1 Mbit/s, Gbit/s from 1000 Mbit/s, Mbit/s between (and for no rate). */
export function rateUnit(mbps: number): RateUnit {
  if (mbps < 1) return { label: 'kbit/s', perMbps: 1000 };
  if (mbps >= 1000) return { label: 'Gbit/s', perMbps: 0.001 };
  return { label: 'Mbit/s', perMbps: 1 };
}

/** A bit rate in the unit that reads best: 56.6 kbit/s, 12 Mbit/s, 10 Gbit/s (never 56.599999999999994). */
export function bitrate(mbps: number): string {
  const unit = rateUnit(mbps);
  return `${formatOf('.4~r')(mbps * unit.perMbps)} ${unit.label}`;
}

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
    const f = formatOf(`.${p}~s`);
    return (v) => (Number.isFinite(v) ? f(v) : '—');
  }
  const p = precisionFixed(step);
  const f = formatOf(`.${p}~f`);
  return (v) => (Number.isFinite(v) ? f(v) : '—');
}
