import { Rng } from '../sim/rng.ts';
import { checkParam, type ParamSpec, type ParamValues, type SchemeMode } from './types.ts';
import { CALLBACK_BUDGET_MS, USER_SCHEME_ID, type UserScheme } from './userInstalled.ts';
import { isObject, wrapController } from './userController.ts';
import { locate, prepareUserCode, TICK, UserCodeError, type PreparedCode } from './userCode.ts';
import { lookedAt, watch, watched } from './userWatch.ts';
import { wallNow } from './wallClock.ts';

/**
 * A user-written controller: the default export of an ES module, `{ title, params, create(params) }`,
 * checked against the parameter schema the built-ins use and wrapped into the Controller interface.
 * Every callback runs under a time budget and a window that is not a number ≥ 0 is an error, so a
 * mistake shows as a message naming the callback and the line, never as a silently clamped run.
 */

/** What the module loader knows of the loaded text, to point errors at the user's lines. */
export interface LoadedModule {
  /** The module's default export. */
  exported: unknown;
  /** The URL the module was loaded from, as the engine writes it in stacks. */
  url: string;
  prepared: PreparedCode | null;
  /** The user's text, which runs that use the scheme carry. */
  source: string;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * What a controller may declare, well above any built-in's (7 parameters, 147 characters of doc, 3
 * choices): the page builds a slider per parameter and shows every doc, and a link's code that declared
 * thousands stalled the page. More parameters or choices are refused; longer texts are cut.
 */
export const DECLARED_LIMITS = { params: 32, choices: 32, choiceChars: 64, docChars: 500, unitChars: 32 } as const;

/**
 * The first `n` elements of a declared list, into an array of this module's own, reading its length once:
 * a getter or a proxy could answer each read differently, and the user's code, loaded after this module,
 * could replace the array methods (these are the ones it found).
 */
const firstOf: (list: unknown[], start: number, end: number) => unknown[] = Function.prototype.call.bind(Array.prototype.slice);

/** One declared parameter, checked: a number (min ≤ default ≤ max, step > 0) or a choice. */
function checkSpec(p: unknown, i: number, seen: Set<string>): ParamSpec {
  const bad = (what: string) => new UserCodeError(`params[${i}]${isObject(p) && typeof p.name === 'string' ? ` (${p.name})` : ''}: ${what}`);
  if (!isObject(p)) throw bad('must be an object { name, unit, min, max, step, default, doc }');
  const { name, doc } = p;
  if (typeof name !== 'string' || !/^[A-Za-z]\w{0,31}$/.test(name)) throw bad('name must be an identifier (a letter, then letters, digits or _)');
  if (seen.has(name)) throw bad('the name is declared twice');
  seen.add(name);
  const docText = typeof doc === 'string' ? doc.slice(0, DECLARED_LIMITS.docChars) : '';
  const given = p.choices;
  if (Array.isArray(given)) {
    const declared = firstOf(given, 0, DECLARED_LIMITS.choices + 1);
    if (declared.length > DECLARED_LIMITS.choices) throw bad(`declares more than ${DECLARED_LIMITS.choices} choices`);
    const choices: string[] = [];
    for (let k = 0; k < declared.length; k++) choices[k] = String(declared[k]);
    if (choices.some((c) => c.length > DECLARED_LIMITS.choiceChars)) throw bad(`a choice is longer than ${DECLARED_LIMITS.choiceChars} characters`);
    if (choices.length === 0 || !choices.includes(String(p.default))) throw bad('default must be one of the choices');
    return { name, kind: 'choice', choices, default: String(p.default), doc: docText };
  }
  const { min, max, step } = p;
  if (!finite(min) || !finite(max) || !finite(step) || !finite(p.default)) throw bad('min, max, step and default must be finite numbers');
  if (min > max || step <= 0) throw bad('needs min ≤ max and step > 0');
  if (p.default < min || p.default > max) throw bad(`default ${p.default} is outside ${min}…${max}`);
  // what its 0 stands for, as a built-in says it (a copy of the BDP estimator keeps "auto")
  const zero = typeof p.zero === 'string' && p.zero !== '' ? { zero: p.zero.slice(0, 32) } : {};
  return { name, kind: 'number', unit: typeof p.unit === 'string' ? p.unit.slice(0, DECLARED_LIMITS.unitChars) : '', min, max, step, default: p.default, doc: docText, ...zero };
}

/** The scheme a loaded module declares; a malformed export throws with what is wrong. */
export function userScheme(m: LoadedModule): UserScheme {
  // The export's fields may be getters, running user code: what they throw is said as the export's fault.
  try {
    return checkedScheme(m);
  } catch (e) {
    throw e instanceof UserCodeError ? e : new UserCodeError(`reading the module's export: ${e instanceof Overrun ? e.message : thrown(e)}`);
  }
}

function checkedScheme(m: LoadedModule): UserScheme {
  const e = m.exported;
  if (!isObject(e)) throw new UserCodeError('the module must `export default { title, params, create(params) }`');
  if (typeof e.title !== 'string' || e.title.trim() === '') throw new UserCodeError('title must be a non-empty string');
  const given = e.params;
  if (!Array.isArray(given)) throw new UserCodeError('params must be an array (it may be empty)');
  const declared = firstOf(given, 0, DECLARED_LIMITS.params + 1);
  if (typeof e.create !== 'function') throw new UserCodeError('create must be a function create(params) returning the controller');
  if (e.mode !== undefined && e.mode !== 'window' && e.mode !== 'burst') throw new UserCodeError('mode, if given, must be "window" or "burst"');
  if (declared.length > DECLARED_LIMITS.params) throw new UserCodeError(`params declares more than ${DECLARED_LIMITS.params} parameters: a controller takes at most ${DECLARED_LIMITS.params}`);
  const seen = new Set<string>();
  const params: ParamSpec[] = [];
  for (let i = 0; i < declared.length; i++) params[i] = checkSpec(declared[i], i, seen);
  const create = e.create as (p: ParamValues, random: () => number) => unknown;
  return {
    id: USER_SCHEME_ID,
    source: m.source,
    title: e.title.slice(0, 80),
    doc: 'Your own controller, written in the editor.',
    mode: (e.mode ?? 'window') as SchemeMode,
    params,
    // `random` draws from the flow's seeded stream, as the built-ins do, so a run can be made again
    create: (values, rng = new Rng(1)) => {
      for (const p of params) if ('error' in checkParam(p, values[p.name])) throw new UserCodeError(`parameter ${p.name}: ${String(values[p.name])} does not fit its schema`);
      const guard = new Guard(m);
      const random = () => rng.next();
      return wrapController(
        guard.call('create', () => create.call(e, { ...values }, random)),
        guard,
      );
    },
  };
}

/**
 * Runs user callbacks: counts each one entered (the loop guard's and the beats' clock), turns a throw
 * into a UserCodeError with the user's line and column. Entering is one counter increment, as it runs
 * several times per packet; the loop guard knows the callback's name from the wrapper that catches it.
 */
export class Guard {
  constructor(private readonly m: Pick<LoadedModule, 'url' | 'prepared'>) {}

  enter(name: string): void {
    watch.callback = name;
    if (++watch.entered >= watch.next) watched(name);
  }

  fail(name: string, e: unknown): UserCodeError {
    if (e instanceof UserCodeError) return e;
    if (e instanceof Overrun) return new UserCodeError(`ran longer than its ${CALLBACK_BUDGET_MS} ms budget (an endless loop?) and was stopped`, name);
    const at = locate(e, this.m.url, this.m.prepared);
    return new UserCodeError(thrown(e), name, at?.line ?? null, at?.column ?? null);
  }

  call<T>(name: string, f: () => T): T {
    this.enter(name);
    try {
      return f();
    } catch (e) {
      throw this.fail(name, e);
    }
  }
}

/**
 * Loads a user's module from its source: checked for syntax, loop-guarded, imported from the URL the
 * platform makes of the text (a data: URL, in the worker and in Node), its top-level code under
 * the same time budget as a callback. `syntaxLine` asks the platform where an engine-only syntax error
 * is (the engine does not say for a module it could not parse).
 */
export async function loadUserScheme(source: string, toUrl: (code: string) => string, syntaxLine?: () => number | null): Promise<UserScheme> {
  const prepared = prepareUserCode(source);
  const url = toUrl(prepared.code);
  const guard = new Guard({ url, prepared });
  guard.enter('the module body');
  let ns: { default?: unknown };
  try {
    ns = await import(/* @vite-ignore */ url);
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw guard.fail('the module body', e);
    const line = syntaxLine?.() ?? null;
    throw new UserCodeError(`${e.name}: ${e.message}`, null, line);
  }
  return userScheme({ exported: ns.default, url, prepared, source });
}

/**
 * The loop guard's state: the callback it counts iterations of (by its entry count: a new callback
 * starts the count again), its iterations, and the clock when the count reached TICKS_PER_LOOK. Short
 * loops never read the clock; a long one reads it once every TICKS_PER_LOOK iterations.
 */
const loop = { callback: -1, ticks: 0, started: 0 };
const TICKS_PER_LOOK = 256;

function tick(): void {
  if (loop.callback !== watch.entered) {
    loop.callback = watch.entered;
    loop.ticks = 0;
  }
  if (++loop.ticks % TICKS_PER_LOOK === 0) look();
}

function look(): void {
  // the loop guard's budget is wall time by nature: it only stops a run that hangs
  const now = wallNow();
  if (loop.ticks === TICKS_PER_LOOK) loop.started = now;
  else if (now - loop.started > CALLBACK_BUDGET_MS) throw new Overrun();
  lookedAt(now);
}

(globalThis as Record<string, unknown>)[TICK] = tick;

/** Thrown by the loop guard; the wrapper that catches it names the callback (a getter read outside one says what it is). */
class Overrun extends Error {
  constructor() {
    super(`ran longer than its ${CALLBACK_BUDGET_MS} ms budget (an endless loop?) and was stopped`);
  }
}

/** What user code threw, in words: printing the value is user code too (a toString may throw). */
function thrown(e: unknown): string {
  try {
    return e instanceof Error ? `${e.name}: ${e.message}` : `threw ${String(e)}`;
  } catch {
    return 'threw a value that cannot be printed';
  }
}
