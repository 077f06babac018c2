import { contestSchemes, findScheme, SCHEMES, type SchemeCatalogue } from '../controllers/registry.ts';
import { checkParam, type ParamValues } from '../controllers/types.ts';
import type { LinkMetrics } from '../metrics/linkMetrics.ts';
import { decimal } from '../text/decimal.ts';
import { quote } from '../text/quote.ts';

/** One run of a sweep: the parameter value it tried and the contest's figures it got. */
export interface SweepPoint {
  scheme: string;
  param: string;
  value: number;
  /** A choice parameter's run: the choice tried, by name (`value` is then its rank in the sweep). */
  choice?: string;
  throughputMbps: number;
  delay95: number;
  power: number;
  score: number;
}

export function sweepPoint(scheme: string, param: string, value: number, m: LinkMetrics): SweepPoint {
  return { scheme, param, value, throughputMbps: m.throughputMbps, delay95: m.delay95, power: m.power, score: m.score };
}

const MAX_SWEEP = 200;
const tooMany = (n: number) => `a sweep takes 1 to ${MAX_SWEEP} values (got ${n})`;

/**
 * The values a sweep tries: "2..512*2" (from 2, times 2, up to 512), "0.5..3+0.25" (adding 0.25), or a
 * list "1,2,4". Each value must fit the parameter's schema; at most 200 values.
 */
export function sweepValues(scheme: string, param: string, text: string, schemes: SchemeCatalogue = SCHEMES): number[] | { error: string } {
  const s = findScheme(scheme, schemes);
  const spec = s?.params.find((p) => p.name === param);
  if (!s || !spec) return { error: `${scheme} has no parameter ${quote(param)}` };
  if (spec.kind !== 'number') return { error: `${param} is a choice, not a number to sweep` };
  let values: number[];
  const range = /^\s*([\d.e+-]+)\s*\.\.\s*([\d.e+-]+)\s*([*+])\s*([\d.e+-]+)\s*$/.exec(text);
  if (range) {
    const [from, to, step] = [decimal(range[1]), decimal(range[2]), decimal(range[4])];
    const times = range[3] === '*';
    if (![from, to, step].every(Number.isFinite) || (times ? step <= 1 || from <= 0 : step <= 0) || to < from) {
      return { error: `the range ${quote(text)} never reaches its end: use FROM..TO*FACTOR (factor above 1) or FROM..TO+STEP (step above 0)` };
    }
    // Counted before any is made: a range of a million values says so instead of stopping at 201.
    const count = Math.floor((times ? Math.log(to / from) / Math.log(step) : (to - from) / step) + 1e-9) + 1;
    if (count > MAX_SWEEP) return { error: tooMany(count) };
    values = [];
    for (let v = from; v <= to * (1 + 1e-9) && values.length < count; v = times ? v * step : v + step) values.push(Number(v.toPrecision(12)));
  } else {
    values = text.split(',').map(decimal);
    if (values.some((v) => !Number.isFinite(v))) return { error: `${quote(text)} is neither FROM..TO*FACTOR, FROM..TO+STEP nor a list of numbers` };
  }
  if (values.length === 0 || values.length > MAX_SWEEP) return { error: tooMany(values.length) };
  for (const v of values) {
    const c = checkParam(spec, v);
    if ('error' in c) return c;
  }
  return values;
}

/** One value a sweep tries: a number, or a choice parameter's choice by its name. */
export type SweepValue = number | string;

/**
 * The values a sweep of a scheme's parameter tries: a number parameter's as `sweepValues` reads them
 * (ranges or a list), a choice parameter's as a list of its choices' names ("multiplicative,sqrt").
 */
export function sweepValuesOf(scheme: string, param: string, text: string, schemes: SchemeCatalogue = SCHEMES): SweepValue[] | { error: string } {
  const spec = findScheme(scheme, schemes)?.params.find((p) => p.name === param);
  if (spec?.kind !== 'choice') return sweepValues(scheme, param, text, schemes);
  const names = text.split(',').map((c) => c.trim());
  for (const name of names) {
    const c = checkParam(spec, name);
    if ('error' in c) return c;
  }
  return [...new Set(names)];
}

/** The points no other point beats on both throughput (higher) and delay (lower), by increasing delay. */
export function frontier<T extends { throughputMbps: number; delay95: number }>(points: T[]): T[] {
  const sorted = points.filter((p) => Number.isFinite(p.delay95) && Number.isFinite(p.throughputMbps)).sort((a, b) => a.delay95 - b.delay95 || b.throughputMbps - a.throughputMbps);
  const out: T[] = [];
  let best = -Infinity;
  for (const p of sorted) {
    if (p.throughputMbps > best) {
      out.push(p);
      best = p.throughputMbps;
    }
  }
  return out;
}

export function bestBy<T extends { power: number; score: number }>(points: T[], key: 'power' | 'score'): T | null {
  let best: T | null = null;
  for (const p of points) if (Number.isFinite(p[key]) && (!best || p[key] > best[key])) best = p;
  return best;
}

/** The built-in window schemes at their defaults: the scoreboard's entries. */
export function scoreboardEntries(): { scheme: string; params: ParamValues }[] {
  return contestSchemes().map((s) => ({ scheme: s.id, params: {} }));
}
