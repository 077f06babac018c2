import type { ScenarioSpec } from '../scenarios/spec.ts';
import { findScheme, type SchemeCatalogue } from './registry.ts';
import type { Scheme } from './types.ts';

/**
 * The user's controller as the rest of the program sees it: its id, and the source the runs that use it
 * carry. Loading and checking the code (userScheme.ts) is the workers' and the CLIs' part,
 * so the page does not load the parser that instruments it.
 */

export const USER_SCHEME_ID = 'user';

/** Longest a single callback may run, ms, before it is stopped as an endless loop. */
export const CALLBACK_BUDGET_MS = 200;

export type UserScheme = Scheme & { source: string };

/** The user's scheme in a catalogue, if it has one. */
export const userSchemeIn = (schemes: SchemeCatalogue): UserScheme | undefined => findScheme(USER_SCHEME_ID, schemes) as UserScheme | undefined;

/** The user's controller's code when `scheme` is it: a worker that runs it must load it first. */
export function userCodeOf(scheme: string, schemes: SchemeCatalogue): string | undefined {
  return scheme === USER_SCHEME_ID ? userSchemeIn(schemes)?.source : undefined;
}

/**
 * The spec with the catalogue's user scheme's source, when one of its flows runs it (else unchanged); a
 * spec that carries code already (new code, checked as it runs) keeps it.
 */
export function withUserCode(spec: ScenarioSpec, schemes: SchemeCatalogue): ScenarioSpec {
  const s = userSchemeIn(schemes);
  if (spec.code !== undefined || !s?.source || !spec.flows.some((f) => f.scheme === USER_SCHEME_ID)) return spec;
  return { ...spec, code: s.source };
}
