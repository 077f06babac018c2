import { pageCatalogue } from '../../web/app/catalogue.ts';
import { describe, expect, it } from 'vitest';
import { DISCIPLINE_PARAMS, LINK_PARAMS, linkValues, withLinkValues } from '../../shared/link/params.ts';
import { DISCIPLINE_ENTRIES, disciplineParams } from '../../shared/link/disciplines.ts';
import { DISCIPLINES } from '../../shared/link/queue.ts';
import { contest } from '../../shared/scenarios/presets.ts';
import { decodeExperiment } from '../../web/state/experiment.ts';
import { specFor } from '../../web/state/spec.ts';
import { DEFAULT_POLICY } from '../../shared/offset/policy.ts';
import { policyValues, withPolicyValues } from '../../shared/offset/params.ts';

describe('queue disciplines as link parameters', () => {
  it('every discipline lists parameters the link schema has', () => {
    expect(Object.keys(DISCIPLINE_PARAMS).sort()).toEqual([...DISCIPLINES].sort());
    for (const names of Object.values(DISCIPLINE_PARAMS)) for (const n of names) expect(LINK_PARAMS.some((p) => p.name === n)).toBe(true);
    const names = LINK_PARAMS.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('each entry of the table round-trips its settings through the link values, away from their defaults', () => {
    for (const entry of DISCIPLINE_ENTRIES) {
      const set = Object.fromEntries(disciplineParams(entry).map((p) => [p.name, p.max]));
      const link = withLinkValues(contest().link, { discipline: entry.kind, ...set });
      const fields = Object.fromEntries(Object.entries(entry.params).map(([field, p]) => [field, p.max]));
      expect(link.queue.discipline).toEqual({ kind: entry.kind, ...fields });
      expect(linkValues(link)).toMatchObject({ discipline: entry.kind, ...set });
    }
  });

  it('a page link with CoDel or PIE runs that discipline with its parameters', () => {
    const codel = decodeExperiment('?link.discipline=codel&link.codelTarget=20', pageCatalogue());
    expect(codel.errors).toEqual([]);
    expect(specFor(codel.value, 'a').link.queue).toEqual({ kind: 'infinite', discipline: { kind: 'codel', target: 20, interval: 100 } });
    const pie = decodeExperiment('?link.discipline=pie&link.queue=packets&link.queueLimit=50&link.pieMaxBurst=0', pageCatalogue());
    expect(specFor(pie.value, 'b').link.queue).toEqual({ kind: 'packets', limit: 50, discipline: { kind: 'pie', qdelayRef: 15, maxBurst: 0 } });
  });

  it('reads back what it wrote, the other disciplines’ parameters at their defaults', () => {
    const link = withLinkValues(contest().link, { discipline: 'pie', pieTarget: 30 });
    expect(linkValues(link)).toMatchObject({ discipline: 'pie', pieTarget: 30, pieMaxBurst: 150, codelTarget: 5, codelInterval: 100 });
    expect(withLinkValues(link, { discipline: 'drop-head' }).queue).toEqual({ kind: 'infinite', discipline: { kind: 'drop-head' } });
  });

  it('percentages read back as typed, with no noise of the ÷100 ×100 round trip', () => {
    const link = withLinkValues(contest().link, { loss: 0.9, ackLoss: 7, duplicate: 0.7, burstP: 0.3 });
    expect(linkValues(link)).toMatchObject({ loss: 0.9, ackLoss: 7, duplicate: 0.7, burstP: 0.3 });
    expect(policyValues(withPolicyValues(DEFAULT_POLICY, { loss: 7 })).loss).toBe(7);
  });
});
