import { format } from 'd3-format';

const three = format('.3~s');

/** Milliseconds on a time axis, as seconds. */
export const seconds = (ms: number) => `${format('.3~f')(ms / 1000)} s`;
/** Axis numbers: SI prefixes for large values (12k, 1.5M), plain decimals below 1000 (0.8, not 800m). */
export const num = (v: number) => (!Number.isFinite(v) ? '—' : Math.abs(v) >= 1000 ? three(v) : format('.3~r')(v));
export const fixed = (v: number, digits: number) => (Number.isFinite(v) ? v.toFixed(digits) : '—');
