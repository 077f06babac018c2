import { findScheme } from '../../shared/controllers/registry.ts';
import type { ParamSpec, ParamValues } from '../../shared/controllers/types.ts';
import { LINK_PARAMS } from '../../shared/link/params.ts';
import { BUNDLED_TRACES } from '../../shared/scenarios/presets.ts';
import type { Experiment } from '../state/experiment.ts';
import { pageSchemes } from '../editor/userCode.ts';

/**
 * "name value unit" for each parameter of a schema, at the given values or the defaults; a 0 that stands
 * for a setting (the schema's `zero`) as its word, without the unit: "timeout auto", not "timeout 0 ms".
 */
function paramsText(schema: readonly ParamSpec[], values: ParamValues): string {
  const unit = (p: ParamSpec) => (p.kind !== 'number' || !p.unit ? '' : p.unit === '%' ? '%' : ` ${p.unit}`);
  const text = (p: ParamSpec) => {
    const v = values[p.name] ?? p.default;
    return p.kind === 'number' && p.zero && Number(v) === 0 ? p.zero : `${v}${unit(p)}`;
  };
  return schema.map((p) => `${p.name} ${text(p)}`).join(', ');
}

function linkText(e: Experiment, delayMs: number | string): string {
  if (e.scenario === 'offset') return `offset server${e.variable ? ' (variable rate)' : ''}${e.live ? ', A live against the real server' : ''}`;
  const trace = e.trace === 'rate' ? 'constant rate' : e.trace.startsWith('upload:') ? `uploaded ${e.trace.slice(7)}` : (BUNDLED_TRACES.find((t) => t.name === e.trace)?.title ?? e.trace);
  const changed = LINK_PARAMS.filter((p) => p.name !== 'delay' && e.link[p.name] !== undefined);
  return `trace ${trace} · delay ${delayMs} ms each way${changed.length ? ` · link ${paramsText(changed, e.link)}` : ''}`;
}

/**
 * The experiment in one line, for a figure that leaves the page: both schemes with every parameter, the
 * link (trace, delay and whatever else differs from the scenario's), and the seed.
 */
export function settingsLine(e: Experiment, link: Record<string, number | string>): string {
  const side = (s: 'a' | 'b') => {
    const scheme = findScheme(e[s].scheme, pageSchemes());
    if (!scheme) return `${s.toUpperCase()}: ${e[s].scheme}`;
    const params = paramsText(scheme.params, e[s].params);
    return `${s.toUpperCase()}: ${scheme.title}${params ? ` (${params})` : ''}`;
  };
  return `${side('a')} · ${side('b')} · ${linkText(e, link.delay)} · seed ${e.seed}`;
}
