import type { ParseArgsConfig } from 'node:util';
import { checkValues, type ParamSpec, type ParamValues } from '../../shared/controllers/types.ts';

/** A bad command line: the message names the flag and what it accepts; the tool exits with 2. */
export class UsageError extends Error {}

/** "queueLimit" → "queue-limit". */
export const flagName = (param: string) => param.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

type StringOption = NonNullable<ParseArgsConfig['options']>[string] & { type: 'string' };

/** One string flag per parameter of the schema. */
export function schemaOptions(specs: readonly ParamSpec[]): Record<string, StringOption> {
  return Object.fromEntries(specs.map((p) => [flagName(p.name), { type: 'string' as const }]));
}

export function schemaHelp(specs: readonly ParamSpec[], title: string): string {
  const lines = specs.map((p) => {
    const range = p.kind === 'choice' ? p.choices.join('|') : `${p.min}…${p.max}${p.unit ? ` ${p.unit}` : ''}`;
    return `  --${flagName(p.name).padEnd(20)} ${range.padEnd(26)} ${p.doc} (default ${p.default})`;
  });
  return `${title}:\n${lines.join('\n')}`;
}

/** The values of the schema's flags that were given, checked; an error names the flag and its range. */
export function readSchemaFlags(specs: readonly ParamSpec[], given: Record<string, unknown>, owner: string): ParamValues {
  const raw: Record<string, string> = {};
  for (const p of specs) {
    const v = given[flagName(p.name)];
    if (typeof v === 'string') raw[p.name] = v;
  }
  const checked = checkValues(specs, raw, owner);
  if ('error' in checked) {
    const name = /^(\w+)/.exec(checked.error)?.[1] ?? '';
    throw new UsageError(`--${flagName(name)}: ${checked.error}`);
  }
  return checked.values;
}
