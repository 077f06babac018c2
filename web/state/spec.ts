import { linkValues, withLinkValues } from '../../shared/link/params.ts';
import { policyValues, withPolicyValues } from '../../shared/offset/params.ts';
import type { ParamValues } from '../../shared/controllers/types.ts';
import { contest, flow, offsetServer, rateLink } from '../../shared/scenarios/presets.ts';
import type { ScenarioSpec } from '../../shared/scenarios/spec.ts';
import { contestOn } from '../../shared/scenarios/contestOn.ts';
import type { Experiment } from './experiment.ts';

/** How long a contest run lasts on a constant-rate or uploaded link whose length is not the trace's. */
export const RATE_LINK_MS = 60_000;

/** The model run one side of the experiment stands for. */
export function specFor(e: Experiment, side: 'a' | 'b', uploadedMs?: number): ScenarioSpec {
  const f = flow(e[side].scheme, { ...e[side].params }, 0, e.scenario === 'offset' ? 1_000_000 : null);
  let spec: ScenarioSpec;
  if (e.scenario === 'offset') {
    spec = offsetServer(e.variable, [f], e.seed);
    spec.offset = { ...spec.offset!, policy: withPolicyValues(spec.offset!.policy, e.offset) };
  } else if (e.trace === 'rate') {
    spec = { ...contest('Verizon-LTE-short', [f], e.seed), link: rateLink(12, 20), durationMs: RATE_LINK_MS };
  } else {
    spec = contestOn(e.trace, [f], e.seed, () => uploadedMs ?? RATE_LINK_MS);
  }
  spec.link = withLinkValues(spec.link, e.link);
  return spec;
}

/** The link's and the offset server's settings in force (the scenario's own, with the experiment's changes), as the schemas express them. */
export function settingsOf(e: Experiment): { link: ParamValues; policy: ParamValues } {
  const spec = specFor(e, 'a');
  return { link: linkValues(spec.link), policy: spec.offset ? policyValues(spec.offset.policy) : {} };
}
