import { csvFormat } from 'd3-dsv';
import type { SweepPoint } from '../scenarios/sweep.ts';

/**
 * A sweep's (or the scoreboard's) points as a CSV file, one row per run with its figures and whether it
 * lies on the frontier; the contest lab's Export CSV and `npm run sim -- --sweep … --csv FILE` both write it.
 */
export function formatSweepCsv<P extends SweepPoint>(trace: string, points: readonly P[], onFrontier: (p: P) => boolean): string {
  return `${csvFormat(
    points.map((p) => ({
      trace,
      scheme: p.scheme,
      param: p.param,
      // The scoreboard's runs try no value; a choice's run tried its name.
      value: p.choice ?? (Number.isFinite(p.value) ? p.value : ''),
      throughput_mbps: p.throughputMbps,
      delay95_ms: p.delay95,
      power: p.power,
      score: p.score,
      frontier: onFrontier(p),
    })),
  )}\n`;
}
