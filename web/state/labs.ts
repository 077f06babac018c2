import { findScheme, type SchemeCatalogue } from '../../shared/controllers/registry.ts';
import { choice, num } from '../../shared/controllers/types.ts';
import { LINK_MODELS } from '../../shared/link/spec.ts';
import { MATRIX_LINK_MODEL } from '../../shared/scenarios/matrix.ts';
import { MEASUREMENT_BANDWIDTH, MEASUREMENT_DELAY, MEASUREMENT_JITTER } from '../../shared/scenarios/measurementLink.ts';
import { MATRIX, SHARED_PRESETS } from '../../shared/scenarios/presets.ts';
import { STARVATION } from '../../shared/scenarios/starvation.ts';
import { parseSegments } from '../../shared/stress/segments.ts';
import { quote } from '../../shared/text/quote.ts';
import { type Field, flag, type ListField, type StateValues, type ViewState } from './codec.ts';
import type { PageCatalogue } from './catalogue.ts';
import { schemesFor } from './experiment.ts';
import { GRID_LINKS } from './fairnessLinks.ts';
import { dropHeldOutTrace, offeredTraces } from './traces.ts';
import { decodeView } from './view.ts';
import { sweepValuesOf } from '../../shared/scenarios/sweep.ts';

/** The URL fields of each lab, from the same schemas as the playground's (web/state/experiment.ts). */

/**
 * The labs' URLs take the page's catalogue, as the playground's do: the user's own controller is among
 * the schemes once the page loaded it (before a link is decoded).
 */

/** The catalogue's window schemes. */
export const windowSchemes = (c: PageCatalogue) => schemesFor('offset', c).filter((s) => s.mode === 'window');
const windowIds = (c: PageCatalogue) => windowSchemes(c).map((s) => s.id);
const sweepableIds = (c: PageCatalogue) =>
  schemesFor('contest', c)
    .filter((s) => s.params.length > 0)
    .map((s) => s.id);
const paramsOf = (scheme: string | number, schemes: SchemeCatalogue) => (findScheme(String(scheme), schemes)?.params ?? []).map((p) => p.name);

/**
 * A sweep's values as typed into an address bar: a query string reads `+` as a space, so a hand-typed
 * "1..3+0.25" (or "1e+3") arrives as "1..3 0.25" ("1e 3"). The space there can only have been the `+`.
 */
export function sweepTextFromUrl(text: string): string {
  return text.replace(/(\d)e +(?=\d)/gi, '$1e+').replace(/^(\s*[\d.e+-]+\s*\.\.\s*[\d.e+-]*[\d.]) +(?=[\d.])/i, '$1+');
}

const sweeps = (c: PageCatalogue): ListField => ({
  name: 'sw',
  kind: 'list',
  max: 4,
  parts: ([scheme]) => [
    choice('scheme', sweepableIds(c), 'fixed', 'The swept scheme'),
    choice('param', paramsOf(scheme, c.schemes), '', 'The swept parameter'),
    { name: 'values', kind: 'text', read: sweepTextFromUrl },
  ],
  check: ([scheme, param, values]) => {
    const r = sweepValuesOf(String(scheme), String(param), String(values), c.schemes);
    return 'error' in r ? r.error : null;
  },
  doc: 'A sweep: scheme:parameter:values',
});

export const contestLab = (c: PageCatalogue): readonly Field[] => [choice('trace', offeredTraces(c), 'Verizon-LTE-short', 'The contest trace'), sweeps(c)];

/** The contest lab's URL, read: a trace the relay holds out is named as the playground names it, and the default runs. */
export function decodeContestLab(search: string, c: PageCatalogue): ViewState<StateValues> {
  const query = new URLSearchParams(search);
  const heldOut = dropHeldOutTrace(query, c);
  const r = decodeView(contestLab(c), query.toString());
  return { ...r, errors: [...heldOut, ...r.errors] };
}

/** A shared-bottleneck flow's start and size: its table's boxes check them as its link does. */
export const FLOW_START = num('start', 'ms', 0, 3_600_000, 1, 0, 'When it starts');
export const FLOW_BYTES = num('bytes', 'bytes', 1, 1e9, 1, 1, 'How much it sends');

export const sharedLab = (c: PageCatalogue): readonly Field[] => [
  choice('preset', [...SHARED_PRESETS.map((p) => p.id), STARVATION.id], 'cdn', 'The link'),
  {
    name: 'f',
    kind: 'list',
    max: 8,
    parts: () => [choice('scheme', windowIds(c), 'reno', 'The flow’s scheme'), FLOW_START, FLOW_BYTES],
    doc: 'A flow: scheme:start:bytes',
  },
  {
    name: 'gs',
    kind: 'list',
    max: 8,
    parts: () => [
      choice(
        'scheme',
        schemesFor('contest', c).map((s) => s.id),
        'cubic',
        'A scheme of the fairness grid',
      ),
    ],
    doc: 'A scheme of the fairness grid',
  },
  choice(
    'gl',
    GRID_LINKS.map((l) => l.id),
    'shallow',
    'The fairness grid’s link',
  ),
];

export const transportLab = (c: PageCatalogue): readonly Field[] => [
  choice('scheme', windowIds(c), 'reno', 'The controller every row runs'),
  num('row', '', 0, MATRIX.length, 1, 0, 'The row whose run is open (0: none)'),
  choice('link', LINK_MODELS, MATRIX_LINK_MODEL, "The link the rows run on: netem, as the course's harness, or Mahimahi's"),
];

/** How many codes a hidden link may have (web/labs/measurement/hiddenLink.ts): a power of two, so any odd multiplier scrambles them. */
export const SECRET_CODES = 2 ** 25;

/** While the truth is hidden, the link carries it only as `secret`, so the address bar does not give it away. */
export const MEASUREMENT_LAB: readonly Field[] = [
  MEASUREMENT_BANDWIDTH,
  MEASUREMENT_DELAY,
  MEASUREMENT_JITTER,
  flag('hide', 'Hide the truth'),
  num('secret', '', 0, SECRET_CODES - 1, 1, 0, 'The hidden bandwidth and delay, sealed'),
];

/** The stress search's settings, and the worst trace it found (so a link shows that trace without searching again). */
export const stressLab = (c: PageCatalogue): readonly Field[] => [
  choice(
    'scheme',
    schemesFor('contest', c).map((s) => s.id),
    'aimd',
    'The controller to break',
  ),
  num('budget', 'runs', 16, 5000, 1, 500, 'Runs of the controller the search may make'),
  num('seed', '', 0, 2 ** 31 - 1, 1, 1, 'Seed of the search and of every run'),
  num('seconds', 's', 5, 300, 1, 30, 'Length of every trace tried'),
  {
    name: 'worst',
    kind: 'text',
    check: (raw) => (raw === '' || parseSegments(raw) ? null : `${quote(raw.slice(0, 40))} is not a trace of segments (ms@Mbit/s, …)`),
    doc: 'The worst trace found, as segments',
  },
];
