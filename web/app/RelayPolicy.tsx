import type { ParamValues } from '../../shared/controllers/types.ts';
import { OFFSET_PARAMS, policyValues } from '../../shared/offset/params.ts';
import type { OffsetPolicyConfig } from '../../shared/offset/policy.ts';

/** The policy the relay's offset servers enforce, as /api/relay reports it, and whether a session may ask for its own. */
export interface RelayPolicyView {
  policy: OffsetPolicyConfig;
  sessionPolicy: boolean;
}

/**
 * In live mode the server's settings are the relay's, not the sidebar's: this says so and shows them (read
 * from the relay). Where the operator lets a session ask for its own policy, the sidebar's settings apply
 * live too, and this says that instead.
 */
export function RelayPolicy({ relay, variable }: { relay: RelayPolicyView; variable: boolean }) {
  if (relay.sessionPolicy) {
    return (
      <p className="hint" data-relay-policy="session">
        The relay lets a live session ask for its own policy: the settings below apply to the live fetch too.
      </p>
    );
  }
  const values: ParamValues = policyValues(relay.policy);
  const shown = OFFSET_PARAMS.filter((p) => variable || !['initialRate', 'firstMs', 'periodMs', 'lowRate', 'highRate', 'variableModel'].includes(p.name));
  return (
    <details open data-relay-policy="relay">
      <summary>Policy — the relay’s</summary>
      <p className="hint">A live fetch meets the policy the relay’s servers enforce (read from the relay); the settings below are the simulated server’s.</p>
      <dl className="relay-policy">
        {shown.map((p) => (
          <div key={p.name} data-param={`relay.${p.name}`}>
            <dt>{p.doc}</dt>
            <dd>
              {values[p.name]} {p.kind === 'number' ? p.unit : ''}
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
