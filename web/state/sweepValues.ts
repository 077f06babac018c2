import { findScheme, type SchemeCatalogue } from '../../shared/controllers/registry.ts';
import { checkParam } from '../../shared/controllers/types.ts';
import { sweepValues } from '../../shared/scenarios/sweep.ts';

/** One value a sweep tries: a number, or a choice parameter's choice by its name. */
export type SweepValue = number | string;

/**
 * The values a sweep of a scheme's parameter tries: a number parameter's as shared/scenarios/sweep.ts reads
 * them (ranges or a list), a choice parameter's as a list of its choices' names ("multiplicative,sqrt").
 */
export function sweepValuesOf(scheme: string, param: string, text: string, schemes: SchemeCatalogue): SweepValue[] | { error: string } {
  const spec = findScheme(scheme, schemes)?.params.find((p) => p.name === param);
  if (spec?.kind !== 'choice') return sweepValues(scheme, param, text, schemes);
  const names = text.split(',').map((c) => c.trim());
  for (const name of names) {
    const c = checkParam(spec, name);
    if ('error' in c) return c;
  }
  return [...new Set(names)];
}
