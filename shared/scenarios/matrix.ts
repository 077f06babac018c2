import type { LinkModel } from '../link/spec.ts';
import type { Summary } from '../metrics/summary.ts';
import { matrixRun, type MatrixRow } from './presets.ts';
import type { FlowSpec, ScenarioSpec } from './spec.ts';

/** Seeds each matrix row runs over by default: one run says little about a lossy row. */
export const MATRIX_SEEDS = 10;

/** The link the matrix runs on unless told otherwise: the course's harness impairs its loopback with netem. */
export const MATRIX_LINK_MODEL: LinkModel = 'netem';

/** The runs of one row: seeds `first` … `first + seeds − 1`. */
export function matrixRuns(row: MatrixRow, scheme: string, params: FlowSpec['params'] = {}, seeds = MATRIX_SEEDS, first = 1, model: LinkModel = MATRIX_LINK_MODEL): ScenarioSpec[] {
  return Array.from({ length: seeds }, (_, k) => matrixRun(row, scheme, params, first + k, model));
}

/**
 * What one run of a row came to: TIMEOUT past the harness's limit, WRONG when the bytes differ, else its
 * performance grade (FAIL below r_min, PERFnn, OKAY).
 */
export function runVerdict(s: Summary): string {
  const r = s.flows[0].reliable!;
  if (Number.isNaN(r.seconds)) return 'TIMEOUT';
  if (!r.exact) return 'WRONG';
  return r.grade?.label ?? 'PASS';
}

/** Order of verdicts from worst to best, for the spread: TIMEOUT, WRONG, FAIL, PERF0 … PERF99, OKAY. */
export function verdictRank(v: string): number {
  if (v === 'TIMEOUT') return -3;
  if (v === 'WRONG') return -2;
  if (v === 'FAIL') return -1;
  if (v === 'OKAY' || v === 'PASS') return 100;
  return Number(v.slice(4));
}

export interface RowVerdict {
  seeds: number;
  /** Runs that finished in time with the exact bytes (a receiver done while its sender hangs times out, as in the harness). */
  passed: number;
  timedOut: number;
  /** Each seed's verdict, in seed order. */
  verdicts: string[];
  /** Worst and best verdict, as "PERF12–OKAY" (one label when they agree). */
  spread: string;
}

/** A row over its seeds: pass rate and grade spread. */
export function rowVerdict(summaries: readonly Summary[]): RowVerdict {
  const verdicts = summaries.map(runVerdict);
  const sorted = [...verdicts].sort((a, b) => verdictRank(a) - verdictRank(b));
  const worst = sorted[0] ?? '';
  const best = sorted[sorted.length - 1] ?? '';
  return {
    seeds: summaries.length,
    passed: verdicts.filter((v) => v !== 'TIMEOUT' && v !== 'WRONG').length,
    timedOut: verdicts.filter((v) => v === 'TIMEOUT').length,
    verdicts,
    spread: worst === best ? worst : `${worst}–${best}`,
  };
}
