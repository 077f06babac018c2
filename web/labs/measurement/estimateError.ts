import { fixed } from '../../charts/format.ts';

/** A difference with its sign, so an estimate above the truth reads +, one below −; one that rounds to 0 has none. */
const signed = (v: number, digits: number) => {
  const text = fixed(v, digits);
  return v > 0 && Number(text) !== 0 ? `+${text}` : text;
};

/**
 * How far an estimate is from the truth, in the estimate's unit and, where the truth is not 0, as a share
 * of it: a delay of 0 has no relative error, but its absolute one still says how good the estimate is.
 */
export function estimateError(estimate: number, truth: number, unit: string, digits: number): string {
  const absolute = `${signed(estimate - truth, digits)} ${unit}`;
  return truth === 0 ? absolute : `${absolute} (${signed((100 * (estimate - truth)) / truth, 1)}%)`;
}
