import { describe, expect, it } from 'vitest';
import type { Grade } from '../../../shared/metrics/grade.ts';
import { gradeExplanation } from '../../../web/teach/explanations.ts';

const grade = (label: string, goodput: number, rMin: number, rTarget = 50_000): Grade => ({ label, goodput, rMin, rTarget }) as Grade;

describe("a grade's explanation", () => {
  it('shows as many decimals as it takes for a goodput below the minimum to read below it', () => {
    expect(gradeExplanation(grade('FAIL', 40_400, 43_600))).toBe('FAIL: goodput 0.040 Mbit/s is below the minimum 0.044 Mbit/s (2.1 Mbit × (1 + drop %) ÷ latency, at most half the bandwidth)');
    expect(gradeExplanation(grade('FAIL', 41_234, 41_239))).toMatch(/^FAIL: goodput 0\.04123 Mbit\/s is below the minimum 0\.04124 Mbit\/s/);
  });

  it('keeps two decimals where they already tell the rates apart', () => {
    expect(gradeExplanation(grade('FAIL', 1_230_000, 2_100_000))).toMatch(/^FAIL: goodput 1\.23 Mbit\/s is below the minimum 2\.10 Mbit\/s/);
  });
});
