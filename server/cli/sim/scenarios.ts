import type { SchemeCatalogue } from '../../../shared/controllers/registry.ts';
import { LINK_PARAMS, withLinkValues } from '../../../shared/link/params.ts';
import { bulk } from '../../../shared/scenarios/bulk.ts';
import { contestOn } from '../../../shared/scenarios/contestOn.ts';
import { STARVATION, starvation } from '../../../shared/scenarios/starvation.ts';
import { UsageError } from '../flags.ts';
import { flow, offsetServer, SHARED_PRESETS, sharedBottleneck } from '../../../shared/scenarios/presets.ts';
import type { FlowSpec, ScenarioSpec } from '../../../shared/scenarios/spec.ts';
import { loadTrace } from '../../traces.ts';
import { refuseUnusedLinkFlags } from '../../link/flags.ts';
import { readSchemaFlags } from '../flags.ts';
import { applySets, knownScheme, type SetFlag } from '../schemeFlags.ts';
import type { Scenario, SimFlags } from './simFlags.ts';

/** The scheme each scenario runs when --scheme names none. */
export const DEFAULT_SCHEME: Record<Exclude<Scenario, 'measurement'>, string> = {
  contest: 'aimd',
  'offset-constant': 'burst-aimd',
  'offset-variable': 'burst-aimd',
  matrix: 'reno',
  shared: 'reno',
  bulk: 'cubic',
  fairness: 'cubic',
};

/** The scheme a run takes when --scheme names none: the starvation preset's own, else the scenario's. */
export const defaultScheme = (flags: SimFlags): string => (flags.preset === STARVATION.id ? STARVATION.scheme : DEFAULT_SCHEME[flags.scenario as keyof typeof DEFAULT_SCHEME]);

/** The starvation preset: two flows (of the schemes given, or its own), one with its ACKs jittered; --set values apply. */
function starvationSpec(flags: SimFlags, given: Record<string, unknown>, schemes: readonly string[], sets: readonly SetFlag[], catalogue: SchemeCatalogue): ScenarioSpec {
  if (flags.flows > 2) throw new UsageError(`--preset ${STARVATION.id} runs two flows (got --flows ${flags.flows})`);
  const spec = starvation(schemes, flags.duration, flags.seed, given.trace === undefined ? null : flags.trace);
  spec.flows = buildFlows(
    spec.flows.map((f) => f.scheme),
    2,
    sets,
    catalogue,
  );
  return spec;
}

/** The flows --scheme, --flows and --set ask for (schemes repeat to fill), each value checked against its scheme's schema. */
export function buildFlows(schemes: readonly string[], count: number, sets: readonly SetFlag[], catalogue: SchemeCatalogue, bytes: number | null = null): FlowSpec[] {
  const known = schemes.map((id) => knownScheme(id, catalogue));
  const flows = Array.from({ length: count }, (_, i) => flow(schemes[i % schemes.length], {}, 0, bytes));
  applySets(
    sets,
    flows.map((f, i) => ({ scheme: known[i % known.length], params: f.params })),
  );
  return flows;
}

/** The preset's flows, as many as --flows or the schemes given (whichever is more), with the --set values. */
function sharedSpec(flags: SimFlags, schemes: readonly string[], sets: readonly SetFlag[], catalogue: SchemeCatalogue): ScenarioSpec {
  const preset = SHARED_PRESETS.find((p) => p.id === flags.preset)!;
  const spec = sharedBottleneck(
    preset,
    Array.from({ length: Math.max(flags.flows, schemes.length) }, (_, i) => schemes[i % schemes.length]),
    flags.seed,
  );
  const flows = buildFlows(schemes, spec.flows.length, sets, catalogue);
  spec.flows.forEach((f, i) => (f.params = flows[i].params));
  return spec;
}

/** The scenario before the link flags: the contest (which a sweep starts from too), an offset server, or a shared bottleneck. */
function presetSpec(flags: SimFlags, given: Record<string, unknown>, schemes: readonly string[], sets: readonly SetFlag[], catalogue: SchemeCatalogue): ScenarioSpec {
  switch (flags.scenario) {
    case 'contest':
      // A trace given by path lasts as long as the file says; a comma list of schemes is as many flows (--help says so), more with --flows.
      return contestOn(flags.trace, buildFlows(schemes, Math.max(flags.flows, schemes.length), sets, catalogue), flags.seed, (path) => loadTrace(path).times.at(-1)!);
    case 'bulk': {
      if (flags.preset === STARVATION.id) return starvationSpec(flags, given, schemes, sets, catalogue);
      if (given.preset !== undefined) throw new UsageError(`--preset ${flags.preset} is the shared scenario's; --scenario bulk takes --preset ${STARVATION.id}`);
      const spec = bulk(schemes, flags.duration, flags.seed, given.trace === undefined ? null : flags.trace);
      spec.flows = buildFlows(schemes, Math.max(flags.flows, schemes.length), sets, catalogue);
      return spec;
    }
    case 'offset-constant':
    case 'offset-variable':
      return offsetServer(flags.scenario === 'offset-variable', buildFlows(schemes, flags.flows, sets, catalogue, 1_000_000), flags.seed);
    case 'shared':
      if (flags.preset === STARVATION.id) return starvationSpec(flags, given, schemes, sets, catalogue);
      return sharedSpec(flags, schemes, sets, catalogue);
    default:
      throw new Error(`--scenario ${flags.scenario} has no single spec`);
  }
}

/** The scenario the flags describe, its link overridden by the link flags given. */
export function scenarioSpec(flags: SimFlags, given: Record<string, unknown>, schemes: readonly string[], sets: readonly SetFlag[], catalogue: SchemeCatalogue): ScenarioSpec {
  const spec = presetSpec(flags, given, schemes, sets, catalogue);
  if (flags.hostJitter === 'off') spec.hostJitter = false;
  spec.link = withLinkValues(spec.link, readSchemaFlags(LINK_PARAMS, given, 'the link'));
  refuseUnusedLinkFlags(spec.link, given);
  return spec;
}
