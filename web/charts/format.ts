import { format } from 'd3-format';

const three = format('.3~s');

/** Milliseconds on a time axis, as seconds. */
export const seconds = (ms: number) => `${format('.3~f')(ms / 1000)} s`;
export const num = (v: number) => (Number.isFinite(v) ? three(v) : '—');
export const fixed = (v: number, digits: number) => (Number.isFinite(v) ? v.toFixed(digits) : '—');
