import { format } from 'd3-format';

/** How the page and the command-line tools write a run's figures, so both print the same digits. */

/** `digits` decimals, or a dash where there is no figure; a value that rounds to zero reads 0.0, never -0.0. */
export const fixed = (v: number, digits = 2) => (Number.isFinite(v) ? (Math.abs(v) < 0.5 * 10 ** -digits ? 0 : v).toFixed(digits) : '—');

const threeDigits = format('.3~r');

/** Three significant digits (0.0663, 0.113, 33.9), whole numbers from 1000: a ratio two runs differ in by half still reads differently. */
export const significant = (v: number) => (!Number.isFinite(v) ? '—' : Math.abs(v) >= 1000 ? v.toFixed(0) : threeDigits(v));
