import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { findScheme, madeForOffsetServer, SCHEMES, type SchemeCatalogue, withUserScheme } from '../../shared/controllers/registry.ts';
import { checkParam, type ParamValues, type Scheme } from '../../shared/controllers/types.ts';
import type { UserScheme } from '../../shared/controllers/userInstalled.ts';
import { loadUserScheme } from '../../shared/controllers/userScheme.ts';
import { listFlag, rangeOf, UsageError, whole } from './flags.ts';
import { quote } from '../../shared/text/quote.ts';

/** The flags that pick a controller and set its parameters: --scheme (a built-in or a file) and --set. */

/** --set, for tools that run one flow or (`perFlow`) several. */
export const setFlag = (perFlow: boolean) =>
  listFlag('set', 'NAME=VALUE', perFlow ? 'controller parameter; FLOW.NAME=VALUE sets it for one flow only (repeatable)' : 'a parameter of the scheme (repeatable)');

/** Each scheme on its own line, its parameters (the names `--set` takes) under it. */
export function schemesHelp(schemes: readonly Scheme[] = SCHEMES): string {
  const list = schemes
    .flatMap((s) => [
      `  ${s.id.padEnd(15)} ${s.title} — ${s.doc}${madeForOffsetServer(s) ? ' [offset server]' : ''}`,
      ...s.params.map((p) => `      ${p.name}=${rangeOf(p)}  (default ${p.default}${p.kind === 'number' && p.zero ? `; 0 = ${p.zero}` : ''})  ${p.doc}`),
    ])
    .join('\n');
  return `${list}\n\n${SCHEME_FILE_RIGHTS}`;
}

/**
 * What --scheme FILE is: the page runs a link's code in a sandbox (README "Code in the page"); the command
 * line runs the file as the program it is.
 */
export const SCHEME_FILE_RIGHTS = `--scheme FILE runs your own file with your own rights, as any program you start: it can read your
files and reach the network. Run only a controller you would run as a program; give anyone else's code to
the page (a link's controller runs there in a sandbox with no network and no storage).`;

/** The scheme of the catalogue a --scheme value names, or an error listing the built-ins. */
export function knownScheme(id: string, schemes: SchemeCatalogue = SCHEMES): Scheme {
  const scheme = findScheme(id, schemes);
  if (!scheme) throw new UsageError(`--scheme: unknown scheme "${id}" (known: ${SCHEMES.map((s) => s.id).join(', ')})`);
  return scheme;
}

/** One `--set NAME=VALUE` (or `FLOW.NAME=VALUE`, for one flow only). */
export interface SetFlag {
  flow: number | null;
  name: string;
  raw: string;
}

export function parseSets(sets: readonly string[], flows = 1): SetFlag[] {
  return sets.map((s) => {
    const m = /^(?:(\d+)\.)?([A-Za-z]\w*)=(.*)$/.exec(s);
    if (!m) throw new UsageError(`--set must look like NAME=VALUE${flows > 1 ? ' or FLOW.NAME=VALUE' : ''} (got ${quote(s)})`);
    return { flow: m[1] === undefined ? null : whole('set', m[1], 0, flows - 1), name: m[2], raw: m[3] };
  });
}

/**
 * Applies the `--set`s to flows of the given schemes: each value checked against the schema of every flow
 * it reaches, and a name no reached scheme has is an error.
 */
export function applySets(sets: readonly SetFlag[], flows: readonly { scheme: Scheme; params: ParamValues }[]): void {
  for (const s of sets) {
    if (s.flow !== null && s.flow >= flows.length) whole('set', String(s.flow), 0, flows.length - 1);
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
    if (!used) throw new UsageError(`--set: ${[...new Set(targets.map((f) => f.scheme.id))].join(', ')} has no parameter ${quote(s.name)} (see --help)`);
  }
}

/** Whether a --scheme value names a file (a path to a JavaScript module) rather than a built-in. */
export const isSchemeFile = (arg: string) => /\.m?js$/.test(arg) || arg.includes('/');

/**
 * Loads a user's controller module as the scheme "user"; an unreadable or bad file is
 * the command line's fault (exit 2), the message naming the line where the engine or the checks found it.
 */
export async function loadSchemeFile(path: string): Promise<UserScheme> {
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--scheme: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  return loadSchemeSource(source);
}

/** A controller module's text loaded as the scheme "user"; a bad one is a UserCodeError naming its line. */
export function loadSchemeSource(source: string): Promise<UserScheme> {
  const dataUrl = (code: string) => `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`;
  // A data: module that fails to parse has no position in its stack; node's own check of the text says the line.
  const syntaxLine = () => {
    const check = spawnSync(process.execPath, ['--input-type=module', '--check'], { input: source, encoding: 'utf8', timeout: 10_000 });
    const line = /\[stdin\]:(\d+)/.exec(check.stderr ?? '')?.[1];
    return line ? Number(line) : null;
  };
  return loadUserScheme(source, dataUrl, syntaxLine);
}

/**
 * The --scheme values with the file among them loaded (at most one: there is one user scheme) and named
 * "user", and the catalogue the runs find their schemes in: the built-ins, and the file's scheme.
 */
export async function loadSchemeFiles(ids: readonly string[]): Promise<{ ids: string[]; schemes: SchemeCatalogue }> {
  const files = [...new Set(ids.filter(isSchemeFile))];
  if (files.length > 1) throw new UsageError('--scheme: give at most one controller file');
  const user = files.length ? await loadSchemeFile(files[0]) : null;
  return { ids: ids.map((id) => (isSchemeFile(id) ? user!.id : id)), schemes: withUserScheme(user) };
}
