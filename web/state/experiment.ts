import { findScheme, madeForOffsetServer } from '../../shared/controllers/registry.ts';
import { choice, num, type ParamValues } from '../../shared/controllers/types.ts';
import { USER_SCHEME_ID, userSchemeIn } from '../../shared/controllers/userInstalled.ts';
import { ALL_DISCIPLINE_PARAMS } from '../../shared/link/disciplines.ts';
import { changesNothing, LINK_PARAMS, unusedLinkParams, withLinkValues } from '../../shared/link/params.ts';
import { OFFSET_PARAMS } from '../../shared/offset/params.ts';
import { rateLink } from '../../shared/scenarios/presets.ts';
import { quote } from '../../shared/text/quote.ts';
import type { PageCatalogue } from './catalogue.ts';
import { decode, decodeGroup, encode, encodeGroup, flag, type Field, type ViewState } from './codec.ts';
import { dropHeldOutTrace, offeredTraces } from './traces.ts';
import { codeToQuery, dropDamagedCode, pageProblems } from './view.ts';

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
  /** How the page shows the runs: A and B on one set of charts, and the guided exercise open ('' for none). */
  overlay: boolean;
  exercise: string;
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
  overlay: false,
  exercise: '',
};

/** The comparison each scenario opens with. */
export const SCENARIO_SIDES: Record<Scenario, { a: Side; b: Side }> = {
  contest: { a: { scheme: 'aimd', params: {} }, b: { scheme: 'bdp', params: {} } },
  offset: { a: { scheme: 'token-pacer', params: {} }, b: { scheme: 'burst-aimd', params: {} } },
};

/** The pickers' schemes: the catalogue's (the built-ins, and the user's own once the editor loaded it) that the scenario drives. */
export function schemesFor(scenario: Scenario, catalogue: PageCatalogue) {
  return scenario === 'contest' ? catalogue.schemes.filter((s) => !madeForOffsetServer(s)) : catalogue.schemes;
}

const SCENARIO_FIELD = choice('s', ['contest', 'offset'], 'contest', 'The scenario');

/** The fields of the playground's URL for one scenario (the sides' schemes default to the scenario's pair). */
export function experimentSchema(scenario: Scenario, catalogue: PageCatalogue): Field[] {
  const ids = schemesFor(scenario, catalogue).map((s) => s.id);
  const sides = SCENARIO_SIDES[scenario];
  return [
    SCENARIO_FIELD,
    flag('live', 'Offset scenario: controller A fetches from the real server'),
    choice('trace', [...offeredTraces(catalogue), 'rate'], DEFAULT_EXPERIMENT.trace, 'The link: a bundled trace or a constant rate'),
    flag('var', 'The variable-rate offset server'),
    num('seed', '', 0, 2 ** 31 - 1, 1, 1, 'Seed of every random choice'),
    choice('a', ids, sides.a.scheme, 'Controller A'),
    choice('b', ids, sides.b.scheme, 'Controller B'),
    flag('overlay', 'A and B drawn on one set of charts'),
    choice('ex', ['', ...catalogue.exercises], '', 'The guided exercise open beside the plane'),
  ];
}

/** The parameter groups under a prefix, besides the two sides' (`a.`, `b.`). */
const GROUPS = [
  { prefix: 'link.', key: 'link', schema: LINK_PARAMS, owner: 'the link' },
  { prefix: 'srv.', key: 'offset', schema: OFFSET_PARAMS, owner: 'the offset server' },
] as const;

const SIDES = ['a', 'b'] as const;

const DISCIPLINE_SETTINGS = new Set(ALL_DISCIPLINE_PARAMS.map((p) => p.name));

/**
 * The settings of other disciplines than the link's own among its values, each with why it changes nothing.
 * The sidebar keeps them as the discipline changes, so that changing back finds them; the address leaves
 * them out, and a link that carries one is told so.
 */
function idleDisciplineSettings(link: ParamValues): Map<string, string> {
  const unused = unusedLinkParams(withLinkValues(rateLink(0, 0), link));
  return new Map([...unused].filter(([name]) => DISCIPLINE_SETTINGS.has(name) && name in link));
}

/** The link's values the address carries: all but the idle discipline settings. */
function linkInAddress(link: ParamValues): ParamValues {
  const idle = idleDisciplineSettings(link);
  return Object.fromEntries(Object.entries(link).filter(([name]) => !idle.has(name)));
}

/** The prefixes of every parameter group a playground URL may carry. */
const PREFIXES = [...SIDES.map((side) => `${side}.`), ...GROUPS.map((g) => g.prefix)];

export function encodeExperiment(e: Experiment, catalogue: PageCatalogue): string {
  const q = encode(experimentSchema(e.scenario, catalogue), {
    s: e.scenario,
    live: e.live ? '1' : '0',
    trace: e.trace,
    var: e.variable ? '1' : '0',
    seed: e.seed,
    a: e.a.scheme,
    b: e.b.scheme,
    overlay: e.overlay ? '1' : '0',
    ex: e.exercise,
  });
  // The sides' schemes stay in the link even at their defaults, so it reads the same after the defaults change.
  for (const side of SIDES) {
    q.set(side, e[side].scheme);
    encodeGroup(e[side].params, `${side}.`, q);
  }
  for (const g of GROUPS) encodeGroup(g.key === 'link' ? linkInAddress(e.link) : e[g.key], g.prefix, q);
  const user = userSchemeIn(catalogue.schemes);
  if (user && SIDES.some((side) => e[side].scheme === USER_SCHEME_ID)) codeToQuery(user.source, q);
  return q.toString();
}

/**
 * Reads an experiment from a query string, the exercise it names among the catalogue's. Whatever is wrong is named in `errors` and replaced by the
 * default, so a bad link still opens a working page.
 */
export function decodeExperiment(search: string, catalogue: PageCatalogue): ViewState<Experiment> {
  const q = new URLSearchParams(search);
  // The scenario first, for the schemas of the other fields; what is wrong with it is told with theirs.
  const s = decode([SCENARIO_FIELD], q).value.s as Scenario;
  const page = pageProblems(q, experimentSchema(s, catalogue), PREFIXES);
  const errors = page.errors;
  const trace = q.get('trace');
  if (trace?.startsWith('upload:')) {
    errors.push(`the trace ${quote(trace.slice(7))} was uploaded in another session: upload it again`);
    q.delete('trace');
  } else errors.push(...dropHeldOutTrace(q, catalogue));
  // A side the link gives the user's controller, whose code is damaged: it runs the scenario's own scheme
  // meanwhile, and the address keeps the link as it came until a setting changes.
  const runsMeanwhile = (side: string) => `${findScheme(SCENARIO_SIDES[s][side as 'a' | 'b'].scheme)?.title}, and the address keeps the link as it came until a setting changes`;
  if (!findScheme(USER_SCHEME_ID, catalogue.schemes)) errors.push(...dropDamagedCode(q, SIDES, (side) => `controller ${side.toUpperCase()}`, runsMeanwhile));
  const top = decode(experimentSchema(s, catalogue), q);
  for (const m of top.errors) errors.push(/^[ab] /.test(m) ? `controller ${m[0].toUpperCase()}: ${m}` : m);
  const v = top.value;
  const e: Experiment = {
    scenario: s,
    live: v.live === '1' && s === 'offset',
    trace: v.trace as string,
    variable: v.var === '1',
    seed: v.seed as number,
    link: {},
    offset: {},
    a: { scheme: v.a as string, params: {} },
    b: { scheme: v.b as string, params: {} },
    overlay: v.overlay === '1',
    exercise: v.ex as string,
  };
  for (const side of SIDES) {
    const scheme = findScheme(e[side].scheme, catalogue.schemes)!;
    const r = decodeGroup(scheme.params, q, `${side}.`, scheme.id);
    e[side].params = r.value;
    errors.push(...r.errors.map((m) => `controller ${side.toUpperCase()}: ${m}`));
  }
  for (const g of GROUPS) {
    const r = decodeGroup(g.schema, q, g.prefix, g.owner);
    e[g.key] = r.value;
    errors.push(...r.errors);
  }
  for (const [name, why] of idleDisciplineSettings(e.link)) {
    errors.push(changesNothing(`the link's ${name}`, why));
    delete e.link[name];
  }
  return { value: e, errors, ignored: page.ignored };
}
