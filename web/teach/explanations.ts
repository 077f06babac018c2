import type { Grade } from '../../shared/metrics/grade.ts';

/** One-line explanations of the numbers the labs grade with, shown on hover and focus. */

const mbit = (bps: number, digits = 2) => `${(bps / 1e6).toFixed(digits)} Mbit/s`;

/** The fewest decimals (at least 2) at which two different rates read differently, so "below" reads true. */
function digitsApart(a: number, b: number): number {
  let digits = 2;
  while (digits < 9 && a !== b && mbit(a, digits) === mbit(b, digits)) digits++;
  return digits;
}

/** What a reliable-transport grade means for this run's goodput. */
export function gradeExplanation(g: Grade): string {
  const d = digitsApart(g.goodput, g.rMin);
  const minimum = `the minimum ${mbit(g.rMin, d)} (2.1 Mbit × (1 + drop %) ÷ latency, at most half the bandwidth)`;
  if (g.label === 'FAIL') return `FAIL: goodput ${mbit(g.goodput, d)} is below ${minimum}`;
  if (g.label === 'OKAY') return `OKAY: goodput ${mbit(g.goodput)} reaches the target, half the bandwidth (${mbit(g.rTarget)})`;
  return `${g.label}: goodput ${mbit(g.goodput, d)} lies ${g.label.slice(4)}% of the way from ${minimum} to the target ${mbit(g.rTarget, d)} (half the bandwidth)`;
}

/** What a matrix row's verdict means. */
export function verdictExplanation(verdict: 'PASS' | 'FAIL' | 'TIMEOUT', seeds: number, passed: number): string {
  if (verdict === 'PASS') return `PASS: on all ${seeds} seeds the receiver's bytes equalled the file exactly, within the harness's timeout`;
  if (verdict === 'TIMEOUT') return `TIMEOUT: ${seeds - passed} of ${seeds} seeds did not deliver the whole file before the harness's timeout`;
  return `FAIL: ${seeds - passed} of ${seeds} seeds delivered bytes that differ from the file`;
}

/** The contest lab's marks. */
export const STAR_EXPLANATION = {
  score: '★ score: the highest contest score of all runs, ln(throughput in Mbit/s ÷ delay95 in ms)',
  power: '★ power: the highest power of all runs, throughput (Mbit/s) ÷ delay95 (s)',
  frontier: 'The line joins each sweep’s frontier: the runs no other run of that sweep beats on both throughput and delay',
} as const;
