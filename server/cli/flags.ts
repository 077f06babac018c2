import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { isMainThread, workerData } from 'node:worker_threads';
import type { ParseArgsConfig } from 'node:util';
import { installUserScheme, madeForOffsetServer } from '../../shared/controllers/registry.ts';
import { checkParam, checkValues, type ParamSpec, type ParamValues, type Scheme } from '../../shared/controllers/types.ts';
import { UserCodeError } from '../../shared/controllers/userCode.ts';
import { loadUserScheme } from '../../shared/controllers/userScheme.ts';

/**
 * The flag layer of every command-line tool: flags generated from parameter schemas, their help, the
 * checks of whole numbers and of `--set`, and the one place that turns a bad command line into exit code 2.
 */

/** A bad command line: the message names the flag and what it accepts; the tool exits with 2. */
export class UsageError extends Error {}

/** "queueLimit" → "queue-limit". */
export const flagName = (param: string) => param.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

type Option = NonNullable<ParseArgsConfig['options']>[string];
type StringOption = Option & { type: 'string' };

/** A flag that is no model parameter: free text (checked against `pattern` when given), a repeatable list, or a switch. */
export interface TextFlag {
  name: string;
  kind: 'text';
  /** What a value looks like, for --help and errors. */
  shape: string;
  pattern?: RegExp;
  default: string | null;
  doc: string;
}
export interface ListFlag {
  name: string;
  kind: 'list';
  shape: string;
  pattern: RegExp;
  doc: string;
}
export interface SwitchFlag {
  name: string;
  kind: 'switch';
  doc: string;
}
/** Every flag a tool takes: a schema's parameter (a number or a choice), or one of the kinds above. */
export type FlagSpec = ParamSpec | TextFlag | ListFlag | SwitchFlag;

export const textFlag = (name: string, shape: string, def: string | null, doc: string, pattern?: RegExp): TextFlag => ({ name, kind: 'text', shape, pattern, default: def, doc });
export const listFlag = (name: string, shape: string, pattern: RegExp, doc: string): ListFlag => ({ name, kind: 'list', shape, pattern, doc });
export const switchFlag = (name: string, doc: string): SwitchFlag => ({ name, kind: 'switch', doc });

/** One string flag per parameter of the schema. */
export function schemaOptions(specs: readonly ParamSpec[]): Record<string, StringOption> {
  return Object.fromEntries(specs.map((p) => [flagName(p.name), { type: 'string' as const }]));
}

/** node:util parseArgs options for flags of every kind: switches are booleans, lists repeatable strings. */
export function flagOptions(specs: readonly FlagSpec[]): Record<string, Option> {
  return Object.fromEntries(specs.map((p) => [flagName(p.name), p.kind === 'switch' ? { type: 'boolean' } : { type: 'string', multiple: p.kind === 'list' }]));
}

const rangeOf = (p: ParamSpec) => (p.kind === 'choice' ? p.choices.join('|') : `${p.min}…${p.max}${p.unit ? ` ${p.unit}` : ''}`);
const shapeOf = (p: FlagSpec) => (p.kind === 'number' || p.kind === 'choice' ? rangeOf(p) : p.kind === 'switch' ? '' : p.shape);
const defaultOf = (p: FlagSpec) => (p.kind === 'list' || p.kind === 'switch' || p.default === null ? '' : ` (default ${p.default})`);

/** One line per flag: its name, what it takes, what it does and its default. */
export function flagHelp(specs: readonly FlagSpec[]): string {
  return specs.map((p) => `  --${flagName(p.name).padEnd(20)} ${shapeOf(p).padEnd(26)} ${p.doc}${defaultOf(p)}`).join('\n');
}

export function schemaHelp(specs: readonly ParamSpec[], title: string): string {
  return `${title}:\n${flagHelp(specs)}`;
}

/**
 * A given flag's value checked against its spec (a switch's is whether it was given); an error names
 * the flag and what it accepts.
 */
export function readFlag(p: FlagSpec, raw: unknown): unknown {
  const flag = flagName(p.name);
  const got = (v: unknown) => ` (got "${String(v).slice(0, 80)}")`;
  switch (p.kind) {
    case 'switch':
      return raw === true;
    case 'list':
      for (const v of raw as string[]) if (!p.pattern.test(v)) throw new UsageError(`--${flag} must be ${p.shape}${got(v)}`);
      return raw;
    case 'text':
      if (p.pattern && !p.pattern.test(raw as string)) throw new UsageError(`--${flag} must be ${p.shape}${got(raw)}`);
      return raw;
    case 'choice':
      if (!p.choices.includes(raw as string)) throw new UsageError(`--${flag} must be ${p.choices.join(' or ')}${got(raw)}`);
      return raw;
    case 'number': {
      if (Number.isInteger(p.step)) return whole(flag, raw as string, p.min, p.max);
      const v = (raw as string).trim() === '' ? Number.NaN : Number(raw);
      if (!Number.isFinite(v) || v < p.min || v > p.max) throw new UsageError(`--${flag} must be a number from ${p.min} to ${p.max}${got(raw)}`);
      return v;
    }
  }
}

/** Each scheme on its own line, its parameters (the names `--set` takes) under it. */
export function schemesHelp(schemes: readonly Scheme[]): string {
  return schemes
    .flatMap((s) => [
      `  ${s.id.padEnd(15)} ${s.title} — ${s.doc}${madeForOffsetServer(s) ? ' [offset server]' : ''}`,
      ...s.params.map((p) => `      ${p.name}=${rangeOf(p)}  (default ${p.default})  ${p.doc}`),
    ])
    .join('\n');
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
  const v = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(v) || v < min || v > max) throw new UsageError(`--${flag} must be a whole number from ${min} to ${max} (got "${raw}")`);
  return v;
}

/** One `--set NAME=VALUE` (or `FLOW.NAME=VALUE`, for one flow only). */
export interface SetFlag {
  flow: number | null;
  name: string;
  raw: string;
}

export function parseSets(sets: readonly string[] = [], flows = 1): SetFlag[] {
  return sets.map((s) => {
    const m = /^(?:(\d+)\.)?([A-Za-z]\w*)=(.*)$/.exec(s);
    if (!m) throw new UsageError(`--set must look like NAME=VALUE${flows > 1 ? ' or FLOW.NAME=VALUE' : ''} (got "${s}")`);
    return { flow: m[1] === undefined ? null : whole('set', m[1], 0, flows - 1), name: m[2], raw: m[3] };
  });
}

/**
 * Applies the `--set`s to flows of the given schemes: each value checked against the schema of every flow
 * it reaches, and a name no reached scheme has is an error.
 */
export function applySets(sets: readonly SetFlag[], flows: readonly { scheme: Scheme; params: ParamValues }[]): void {
  for (const s of sets) {
    const targets = s.flow === null ? flows : [flows[s.flow]];
    let used = false;
    for (const f of targets) {
      const spec = f.scheme.params.find((p) => p.name === s.name);
      if (!spec) continue;
      const r = checkParam(spec, s.raw);
      if ('error' in r) throw new UsageError(`--set ${r.error}`);
      f.params[s.name] = r.value;
      used = true;
    }
    if (!used) throw new UsageError(`--set: ${[...new Set(targets.map((f) => f.scheme.id))].join(', ')} has no parameter "${s.name}" (see --help)`);
  }
}

/** Where a tool writes: the process's streams, or a test's buffers. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export const PROCESS_IO: Io = { out: (t) => console.log(t), err: (t) => console.error(t) };

/** What else a tool counts as the command line's fault (exit 2), beside UsageError and parseArgs' errors. */
export interface UsageFaults {
  /** Other modules' errors that mean the input is at fault (a bad scenario, an unreadable trace). */
  errors?: (abstract new (
    ...a: never[]
  ) => Error)[];
  /** System error codes that mean a flag asked for the impossible (an address in use). */
  codes?: string[];
  /** More to say after the message (a flag other tools spell differently). */
  hint?(message: string): string;
}

/**
 * Runs a tool's main and returns its exit code: 2 with the message and a pointer to --help for a bad
 * command line, 1 with the message for a failure, otherwise what main returns.
 */
export async function runTool(tool: string, main: (argv: string[], io: Io) => number | Promise<number>, argv: string[], io: Io = PROCESS_IO, usage: UsageFaults = {}): Promise<number> {
  try {
    return await main(argv, io);
  } catch (e) {
    const error = e as Error & { code?: string };
    const byUser =
      error instanceof UsageError ||
      error instanceof UserCodeError ||
      usage.errors?.some((k) => error instanceof k) ||
      error.code?.startsWith('ERR_PARSE_ARGS') ||
      usage.codes?.includes(error.code ?? '');
    if (byUser) {
      io.err(`${tool}: ${error.message}${usage.hint?.(error.message) ?? ''}\nRun with --help for the options.`);
      return 2;
    }
    io.err(`${tool}: ${error.message}`);
    return 1;
  }
}

/** Refuses an output file that cannot be written, before the work whose result it would hold. */
export function checkWritable(flag: string, path: string): void {
  const at = resolve(path);
  try {
    if (existsSync(at) && statSync(at).isDirectory()) throw new Error('a directory');
    accessSync(existsSync(at) ? at : dirname(at), constants.W_OK);
  } catch {
    throw new UsageError(`--${flag}: cannot write "${path}" (no such directory, or not allowed)`);
  }
}

/**
 * Whether the module at `url` is the script node was started with (and not imported by a test), or the
 * one a guarded tool's thread was started to run (server/cli/asProcess.ts).
 */
export const isEntry = (url: string) => (process.argv[1] !== undefined && url === pathToFileURL(process.argv[1]).href) || (!isMainThread && (workerData as { module?: string } | null)?.module === url);

/** Whether a --scheme value names a file (a path to a JavaScript module) rather than a built-in. */
export const isSchemeFile = (arg: string) => /\.m?js$/.test(arg) || arg.includes('/');

/**
 * Loads a user's controller module and installs it as the scheme "user"; an unreadable or bad file is
 * the command line's fault (exit 2), the message naming the line where the engine or the checks found it.
 */
export async function loadSchemeFile(path: string): Promise<string> {
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--scheme: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const dataUrl = (code: string) => `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`;
  // A data: module that fails to parse has no position in its stack; node's own check of the text says the line.
  const syntaxLine = () => {
    const check = spawnSync(process.execPath, ['--input-type=module', '--check'], { input: source, encoding: 'utf8', timeout: 10_000 });
    const line = /\[stdin\]:(\d+)/.exec(check.stderr ?? '')?.[1];
    return line ? Number(line) : null;
  };
  installUserScheme(await loadUserScheme(source, dataUrl, syntaxLine));
  return 'user';
}

/** The --scheme values with each file loaded (at most one: there is one user scheme) and named "user". */
export async function loadSchemeFiles(args: string[] | undefined): Promise<string[] | undefined> {
  const files = new Set((args ?? []).flatMap((a) => a.split(',')).filter(isSchemeFile));
  if (files.size > 1) throw new UsageError('--scheme: give at most one controller file');
  for (const f of files) await loadSchemeFile(f);
  return args?.map((a) =>
    a
      .split(',')
      .map((s) => (isSchemeFile(s) ? 'user' : s))
      .join(','),
  );
}
