import { findScheme, SCHEMES } from '../../shared/controllers/registry.ts';
import { checkValues, type ParamValues } from '../../shared/controllers/types.ts';
import { LINK_PARAMS } from '../../shared/link/params.ts';
import { OFFSET_PARAMS } from '../../shared/offset/params.ts';
import { BUNDLED_TRACES } from '../../shared/scenarios/presets.ts';

/** The whole experiment a page shows: everything the URL carries. */
export type Scenario = 'contest' | 'offset';

export interface Side {
  scheme: string;
  params: ParamValues;
}

export interface Experiment {
  scenario: Scenario;
  /** Offset scenario only: run controller A against the relay's real server instead of the model. */
  live: boolean;
  /** A bundled trace, "rate" for a constant-rate link, or "upload:NAME" for one uploaded this session. */
  trace: string;
  /** Link settings that differ from the scenario's own (LINK_PARAMS names). */
  link: ParamValues;
  /** Offset-server settings that differ from the course server's (OFFSET_PARAMS names). */
  offset: ParamValues;
  variable: boolean;
  a: Side;
  b: Side;
  seed: number;
}

export const DEFAULT_EXPERIMENT: Experiment = {
  scenario: 'contest',
  live: false,
  trace: 'Verizon-LTE-short',
  link: {},
  offset: {},
  variable: false,
  a: { scheme: 'aimd', params: {} },
  b: { scheme: 'bdp', params: {} },
  seed: 1,
};

/** The comparison each scenario opens with. */
export const SCENARIO_SIDES: Record<Scenario, { a: Side; b: Side }> = {
  contest: { a: { scheme: 'aimd', params: {} }, b: { scheme: 'bdp', params: {} } },
  offset: { a: { scheme: 'token-pacer', params: {} }, b: { scheme: 'burst-aimd', params: {} } },
};

export function schemesFor(scenario: Scenario) {
  return scenario === 'contest' ? SCHEMES.filter((s) => s.mode === 'window') : SCHEMES;
}

export function encodeExperiment(e: Experiment): string {
  const q = new URLSearchParams();
  if (e.scenario !== 'contest') q.set('s', e.scenario);
  if (e.live) q.set('live', '1');
  if (e.trace !== DEFAULT_EXPERIMENT.trace) q.set('trace', e.trace);
  if (e.variable) q.set('var', '1');
  if (e.seed !== 1) q.set('seed', String(e.seed));
  for (const side of ['a', 'b'] as const) {
    q.set(side, e[side].scheme);
    for (const [k, v] of Object.entries(e[side].params)) q.set(`${side}.${k}`, String(v));
  }
  for (const [k, v] of Object.entries(e.link)) q.set(`link.${k}`, String(v));
  for (const [k, v] of Object.entries(e.offset)) q.set(`srv.${k}`, String(v));
  return q.toString();
}

/**
 * Reads an experiment from a query string. Whatever is wrong is named in `errors` and replaced by the
 * default, so a bad link still opens a working page.
 */
export function decodeExperiment(search: string): { experiment: Experiment; errors: string[] } {
  const q = new URLSearchParams(search);
  const errors: string[] = [];
  const scenario = (q.get('s') ?? 'contest') as Scenario;
  const e: Experiment = { ...DEFAULT_EXPERIMENT, ...SCENARIO_SIDES.contest, link: {}, offset: {} };
  if (scenario === 'contest' || scenario === 'offset') {
    e.scenario = scenario;
    Object.assign(e, structuredClone(SCENARIO_SIDES[scenario]));
  } else errors.push(`s must be contest or offset (got "${scenario}")`);
  e.live = q.get('live') === '1' && e.scenario === 'offset';
  e.variable = q.get('var') === '1';
  const trace = q.get('trace');
  if (trace !== null) {
    if (trace === 'rate' || BUNDLED_TRACES.some((t) => t.name === trace)) e.trace = trace;
    else if (trace.startsWith('upload:')) errors.push(`the trace "${trace.slice(7)}" was uploaded in another session: upload it again`);
    else errors.push(`unknown trace "${trace}"`);
  }
  const seed = q.get('seed');
  if (seed !== null) {
    const n = Number(seed);
    if (Number.isInteger(n) && n >= 0 && n < 2 ** 31) e.seed = n;
    else errors.push(`seed must be a whole number from 0 to 2147483647 (got "${seed}")`);
  }
  for (const side of ['a', 'b'] as const) {
    const id = q.get(side);
    if (id !== null) {
      const scheme = findScheme(id);
      if (scheme && schemesFor(e.scenario).includes(scheme)) e[side] = { scheme: id, params: {} };
      else errors.push(`controller ${side.toUpperCase()}: unknown scheme "${id}" for this scenario`);
    }
    const scheme = findScheme(e[side].scheme)!;
    const raw = prefixed(q, `${side}.`);
    for (const [k, v] of Object.entries(raw)) {
      const r = checkValues(scheme.params, { [k]: v }, scheme.id);
      if ('error' in r) errors.push(`controller ${side.toUpperCase()}: ${r.error}`);
      else Object.assign(e[side].params, r.values);
    }
  }
  for (const [k, v] of Object.entries(prefixed(q, 'link.'))) {
    const r = checkValues(LINK_PARAMS, { [k]: v }, 'the link');
    if ('error' in r) errors.push(r.error);
    else Object.assign(e.link, r.values);
  }
  for (const [k, v] of Object.entries(prefixed(q, 'srv.'))) {
    const r = checkValues(OFFSET_PARAMS, { [k]: v }, 'the offset server');
    if ('error' in r) errors.push(r.error);
    else Object.assign(e.offset, r.values);
  }
  return { experiment: e, errors };
}

function prefixed(q: URLSearchParams, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of q) if (k.startsWith(prefix)) out[k.slice(prefix.length)] = v;
  return out;
}
