import type { Grade } from '../../shared/metrics/grade.ts';

/** One-line explanations of the numbers the labs grade with, shown on hover and focus. */

const mbit = (bps: number) => `${(bps / 1e6).toFixed(2)} Mbit/s`;

/** What a reliable-transport grade means for this run's goodput. */
export function gradeExplanation(g: Grade): string {
  const minimum = `the minimum ${mbit(g.rMin)} (2.1 Mbit × (1 + drop %) ÷ latency, at most half the bandwidth)`;
  if (g.label === 'FAIL') return `FAIL: goodput ${mbit(g.goodput)} is below ${minimum}`;
  if (g.label === 'OKAY') return `OKAY: goodput ${mbit(g.goodput)} reaches the target, half the bandwidth (${mbit(g.rTarget)})`;
  return `${g.label}: goodput ${mbit(g.goodput)} lies ${g.label.slice(4)}% of the way from ${minimum} to the target ${mbit(g.rTarget)} (half the bandwidth)`;
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
