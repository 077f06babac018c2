import type { ParseArgsConfig } from 'node:util';
import { checkLinkValues, LINK_PARAMS, withLinkValues } from '../../shared/link/params.ts';
import type { ScenarioSpec } from '../../shared/scenarios/spec.ts';

export class UsageError extends Error {}

const flagName = (param: string) => param.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** One string flag per link parameter, generated from the link schema. */
export const LINK_OPTIONS = Object.fromEntries(LINK_PARAMS.map((p) => [flagName(p.name), { type: 'string' as const }])) as Record<
  string,
  NonNullable<ParseArgsConfig['options']>[string] & { type: 'string' }
>;

export function linkHelp(): string {
  const lines = LINK_PARAMS.map((p) => {
    const range = p.kind === 'choice' ? p.choices.join('|') : `${p.min}…${p.max}${p.unit ? ` ${p.unit}` : ''}`;
    return `  --${flagName(p.name).padEnd(20)} ${range.padEnd(26)} ${p.doc}`;
  });
  return `Link (each overrides the scenario's own setting):\n${lines.join('\n')}`;
}

/** Applies the link flags that were given, with an error naming the flag and its range. */
export function applyLinkFlags(spec: ScenarioSpec, given: Record<string, unknown>): void {
  const raw: Record<string, string> = {};
  for (const p of LINK_PARAMS) {
    const v = given[flagName(p.name)];
    if (typeof v === 'string') raw[p.name] = v;
  }
  const checked = checkLinkValues(raw);
  if ('error' in checked) {
    const name = /^(\w+)/.exec(checked.error)?.[1] ?? '';
    throw new UsageError(`--${flagName(name)}: ${checked.error}`);
  }
  spec.link = withLinkValues(spec.link, checked.values);
}
