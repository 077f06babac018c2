/** Digits with an optional point and fraction, an optional exponent, and spaces around. */
const DECIMAL = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i;

/**
 * A number as a person writes one in a flag, a link or a box: decimal, or NaN. `Number()` also reads
 * "0x10", "0b11", "Infinity" and a blank as numbers: a run would go with a value nobody meant.
 */
export function decimal(raw: string): number {
  return DECIMAL.test(raw) ? Number(raw) : Number.NaN;
}
