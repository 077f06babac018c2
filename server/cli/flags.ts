import { parseArgs, type ParseArgsConfig } from 'node:util';
import { checkValues, type ChoiceParam, type NumberParam, type ParamSpec, type ParamValues } from '../../shared/controllers/types.ts';
import { decimal } from '../../shared/text/decimal.ts';
import { quote } from '../../shared/text/quote.ts';
import { checkWritable } from './outputPaths.ts';
import { UsageError } from './usageError.ts';

/**
 * The flag layer of every command-line tool: each tool declares its flags once, as a list of specs, and
 * its parseArgs options, the checks of its values, its defaults and the --help lines of those flags all
 * come from that list. Schemas' parameters (the link, the offset-server policy) are flags of the same kinds.
 */

export { UsageError };

/** "queueLimit" → "queue-limit". */
export const flagName = (param: string) => param.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** What a text value must be: a pattern, or a test of the whole value. */
type Accepts = RegExp | ((value: string) => boolean);

interface Described {
  /** What a value looks like, for --help ("FILE", "HOST:PORT"). */
  shape: string;
  /** What a value must be, in words, for the error about a bad one (the shape when not given). */
  means?: string;
  accepts?: Accepts;
}

/** Free text. `required` flags have no default; `output` names a file the tool will write. */
export interface TextFlag<N extends string = string, D extends string | null = string | null> extends Described {
  name: N;
  kind: 'text';
  default: D;
  required?: boolean;
  output?: boolean;
  doc: string;
}
/** A repeatable flag; with `commas`, each value may also be a comma list. Its value is every item given. */
export interface ListFlag<N extends string = string> extends Described {
  name: N;
  kind: 'list';
  commas?: boolean;
  doc: string;
}
export interface SwitchFlag<N extends string = string> {
  name: N;
  kind: 'switch';
  short?: string;
  doc: string;
}
/** A whole number in a range that is no schema's parameter; one without a default may be left out. */
export interface WholeFlag<N extends string = string, D extends number | null = number | null> {
  name: N;
  kind: 'whole';
  unit: string;
  min: number;
  max: number;
  default: D;
  doc: string;
}
/** Every flag a tool takes: a schema's parameter (a number or a choice), or one of the kinds above. */
export type FlagSpec = ParamSpec | TextFlag | ListFlag | SwitchFlag | WholeFlag;

type TextOptions = Partial<Described> & Pick<TextFlag, 'output'>;

export const textFlag = <const N extends string, const D extends string | null>(name: N, shape: string, def: D, doc: string, more: TextOptions = {}): TextFlag<N, D> => ({
  name,
  kind: 'text',
  shape,
  default: def,
  doc,
  ...more,
});
export const requiredFlag = <const N extends string>(name: N, shape: string, doc: string, more: TextOptions = {}): TextFlag<N, null> & { required: true } => ({
  ...textFlag(name, shape, null, doc, more),
  required: true,
});
/** A file the tool writes, refused before any work when it cannot be written. */
export const outputFlag = <const N extends string>(name: N, doc: string) => textFlag(name, 'FILE', null, doc, { output: true });
export const listFlag = <const N extends string>(name: N, shape: string, doc: string, more: Partial<Described> & Pick<ListFlag, 'commas'> = {}): ListFlag<N> => ({
  name,
  kind: 'list',
  shape,
  doc,
  ...more,
});
export const switchFlag = <const N extends string>(name: N, doc: string): SwitchFlag<N> => ({ name, kind: 'switch', doc });
export const wholeFlag = <const N extends string, const D extends number | null>(name: N, unit: string, min: number, max: number, def: D, doc: string): WholeFlag<N, D> => ({
  name,
  kind: 'whole',
  unit,
  min,
  max,
  default: def,
  doc,
});
/** Every tool's --help (also -h); it wins over every other flag, so it works with required ones missing. */
export const HELP_FLAG: SwitchFlag<'help'> = { name: 'help', kind: 'switch', short: 'h', doc: 'print this help' };
/** --seed, from 0 to 2³¹ − 1, 1 when left out; `doc` says which random choices it seeds. */
export const seedFlag = (doc: string) => wholeFlag('seed', '', 0, 2 ** 31 - 1, 1, doc);

type ValueOf<S> = S extends SwitchFlag
  ? boolean
  : S extends ListFlag
    ? string[]
    : S extends ChoiceParam<string, infer C>
      ? C
      : S extends NumberParam
        ? number
        : S extends { required: true }
          ? string
          : S extends { default: null }
            ? (S extends WholeFlag ? number : string) | undefined
            : S extends WholeFlag
              ? number
              : string;

/** The values a tool's flag list reads to, by parameter name: a flag left out has its default. */
export type FlagValues<L extends readonly FlagSpec[]> = { [S in L[number] as S['name']]: ValueOf<S> };

type Option = NonNullable<ParseArgsConfig['options']>[string];

/** node:util parseArgs options for flags of every kind: switches are booleans, lists repeatable strings. */
function flagOptions(specs: readonly FlagSpec[]): Record<string, Option> {
  return Object.fromEntries(specs.map((p) => [flagName(p.name), p.kind === 'switch' ? { type: 'boolean', ...(p.short ? { short: p.short } : {}) } : { type: 'string', multiple: p.kind === 'list' }]));
}

/** "a or b", or "one of a, b, c". */
export const oneOf = (choices: readonly string[]) => (choices.length === 2 ? choices.join(' or ') : `one of ${choices.join(', ')}`);

/** A number's range with its unit, or a choice's choices. */
export const rangeOf = (p: NumberParam | ChoiceParam | WholeFlag) => (p.kind === 'choice' ? p.choices.join('|') : `${p.min}…${p.max}${p.unit ? ` ${p.unit}` : ''}`);
/** What a flag takes, as --help and a missing value's message show it. */
export const shapeOf = (p: FlagSpec) => (p.kind === 'switch' ? (p.short ? `-${p.short}` : '') : p.kind === 'text' || p.kind === 'list' ? p.shape : rangeOf(p));

const accepted = (accepts: Accepts | undefined, v: string) => (accepts === undefined ? true : typeof accepts === 'function' ? accepts(v) : accepts.test(v));

/**
 * A given flag's value checked against its spec (a switch's is whether it was given, a list's every item);
 * an error names the flag and what it accepts.
 */
export function readFlag(p: FlagSpec, raw: unknown): unknown {
  const flag = flagName(p.name);
  const bad = (v: unknown, accepts: string) => new UsageError(`--${flag} must be ${accepts} (got ${quote(String(v))})`);
  switch (p.kind) {
    case 'switch':
      return raw === true;
    case 'list': {
      const items = p.commas ? (raw as string[]).flatMap((v) => v.split(',')).filter((v) => v !== '') : (raw as string[]);
      for (const v of items) if (!accepted(p.accepts, v)) throw bad(v, p.means ?? p.shape);
      return items;
    }
    case 'text':
      if (!accepted(p.accepts, raw as string)) throw bad(raw, p.means ?? p.shape);
      if (p.output) checkWritable(flag, raw as string);
      return raw;
    case 'choice':
      if (!p.choices.includes(raw as string)) throw bad(raw, oneOf(p.choices));
      return raw;
    case 'whole':
      return whole(flag, raw as string, p.min, p.max);
    case 'number': {
      if (Number.isInteger(p.step)) return whole(flag, raw as string, p.min, p.max);
      const v = decimal(raw as string);
      if (!Number.isFinite(v) || v < p.min || v > p.max) throw bad(raw, `a number from ${p.min} to ${p.max}`);
      return v;
    }
  }
}

/** A flag left out: its default, or an error when it is required. */
function defaultValue(p: FlagSpec): unknown {
  if (p.kind === 'text' && p.required) throw new UsageError(`--${flagName(p.name)} ${p.shape} is required`);
  return p.kind === 'list' ? [] : p.kind === 'switch' ? false : (p.default ?? undefined);
}

/** A command line read against a tool's flags: --help asked for, or every own flag's value and the flags as given. */
export type CommandLine<L extends readonly FlagSpec[]> = { help: true } | { help: false; flags: FlagValues<L>; given: Record<string, unknown>; positionals: string[] };

/**
 * Reads a command line against a tool's own flags, each checked against its spec or given its default, and
 * the flags it passes on: a schema's parameters, a table that maps flags to options, left in `given` as typed
 * for the reader that knows what they set (readSchemaFlags, readRelayFlags). A tool that takes operands
 * (an input file) says how many; any more, or any at all for the others, is a usage error.
 */
export function readCommandLine<const L extends readonly FlagSpec[]>(argv: string[], own: L, passedOn: readonly FlagSpec[] = [], operands = 0): CommandLine<L> {
  const specs = [...own, ...passedOn];
  const { args, missing } = joinDashValues(argv, specs);
  let given: ReturnType<typeof parseArgs>['values'];
  let positionals: string[];
  try {
    ({ values: given, positionals } = parseArgs({ args, options: flagOptions(specs), strict: true, allowPositionals: operands > 0 }));
  } catch (e) {
    // What parseArgs trips over next is mostly the word left without its flag: the missing value says why.
    throw missing ?? e;
  }
  if (given.help === true) return { help: true };
  if (missing) throw missing;
  if (positionals.length > operands) throw new UsageError(`unexpected argument ${quote(positionals[operands])}`);
  const flags = Object.fromEntries(own.map((p) => [p.name, given[flagName(p.name)] === undefined ? defaultValue(p) : readFlag(p, given[flagName(p.name)])]));
  return { help: false, flags: flags as FlagValues<L>, given, positionals };
}

/**
 * A word after a flag that can only be a value: no flag starts with "-" and a digit or a point, so a
 * negative number is one, as parseArgs, which calls every word that starts with "-" ambiguous, cannot know.
 */
const NUMBER_LIKE = /^-[\d.]/;

/**
 * The command line with each value-taking flag followed by a negative number joined to it (`--delay -5`
 * read as `--delay=-5`, so its check says what the flag accepts), and the first flag left without a value,
 * dropped from the line: at the end, or before another word that starts with "-". parseArgs' own messages
 * for those name no range and tell of "-XYZ"; the error is kept until --help has had its chance to win.
 */
function joinDashValues(argv: string[], specs: readonly FlagSpec[]): { args: string[]; missing: UsageError | null } {
  const takesValue = new Map(specs.filter((p) => p.kind !== 'switch').map((p) => [`--${flagName(p.name)}`, p]));
  const end = argv.includes('--') ? argv.indexOf('--') : argv.length;
  const args: string[] = [];
  let missing: UsageError | null = null;
  for (let i = 0; i < end; i++) {
    const p = takesValue.get(argv[i]);
    const next: string | undefined = argv[i + 1];
    // "-" alone is a value to parseArgs too (standard input, by custom).
    const fine = p === undefined || (next !== undefined && (next === '-' || !next.startsWith('-')));
    if (fine) args.push(argv[i]);
    else if (next !== undefined && NUMBER_LIKE.test(next)) args.push(`${argv[i]}=${argv[++i]}`);
    else missing ??= missingValue(p, next);
  }
  return { args: [...args, ...argv.slice(end)], missing };
}

/** A flag with no value: its shape, and for a word that reads as a flag, how to give one that starts with "-". */
function missingValue(p: FlagSpec, next: string | undefined): UsageError {
  const flag = `--${flagName(p.name)}`;
  const head = `${flag} ${shapeOf(p)} is missing its value`;
  if (next === undefined) return new UsageError(head);
  if (next === '--') return new UsageError(`${head} ("--" ends the flags)`);
  // The word goes into the example only when it can be copied from the message as it is.
  const example = `${flag}=${/^[\x21-\x7e]{1,40}$/.test(next) ? next : 'VALUE'}`;
  return new UsageError(`${head} (${quote(next)} reads as a flag; a value that starts with "-" is joined to it: ${example})`);
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

export function whole(flag: string, raw: string, min: number, max: number): number {
  const v = decimal(raw);
  if (!Number.isInteger(v) || v < min || v > max) throw new UsageError(`--${flag} must be a whole number from ${min} to ${max} (got ${quote(raw)})`);
  return v;
}

/** "HOST:PORT" split, or null when it is not that with a port from `minPort` to 65535. */
export function splitHostPort(raw: string, minPort: number): { host: string; port: number } | null {
  const m = /^([^:\s]+):(\d{1,5})$/.exec(raw);
  const port = Number(m?.[2]);
  return m && port >= minPort && port <= 65_535 ? { host: m[1], port } : null;
}
