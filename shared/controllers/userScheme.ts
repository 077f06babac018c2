import type { ScenarioSpec } from '../scenarios/spec.ts';
import { findScheme } from './registry.ts';
import { ESTIMATES, type EstimateName } from '../log/kinds.ts';
import { checkParam, type Ack, type Controller, type ParamSpec, type ParamValues, type Scheme, type SchemeMode } from './types.ts';
import { locate, prepareUserCode, TICK, UserCodeError, type PreparedCode } from './userCode.ts';
import { watch, watched } from './userWatch.ts';

/**
 * A user-written controller: the default export of an ES module, `{ title, params, create(params) }`,
 * checked against the parameter schema the built-ins use and wrapped into the Controller interface.
 * Every callback runs under a time budget and a window that is not a number ≥ 0 is an error, so a
 * mistake shows as a message naming the callback and the line, never as a silently clamped run.
 */

export const USER_SCHEME_ID = 'user';

/** Longest a single callback may run, ms, before it is stopped as an endless loop. */
export const CALLBACK_BUDGET_MS = 200;

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

export type UserScheme = Scheme & { source: string };

/** The spec with the installed user scheme's source, when one of its flows runs it (else unchanged). */
export function withUserCode(spec: ScenarioSpec): ScenarioSpec {
  const s = findScheme(USER_SCHEME_ID) as UserScheme | undefined;
  if (!s?.source || !spec.flows.some((f) => f.scheme === USER_SCHEME_ID)) return spec;
  return { ...spec, code: s.source };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** One declared parameter, checked: a number (min ≤ default ≤ max, step > 0) or a choice. */
function checkSpec(p: unknown, i: number, seen: Set<string>): ParamSpec {
  const bad = (what: string) => new UserCodeError(`params[${i}]${isObject(p) && typeof p.name === 'string' ? ` (${p.name})` : ''}: ${what}`);
  if (!isObject(p)) throw bad('must be an object { name, unit, min, max, step, default, doc }');
  const { name, doc } = p;
  if (typeof name !== 'string' || !/^[A-Za-z]\w{0,31}$/.test(name)) throw bad('name must be an identifier (a letter, then letters, digits or _)');
  if (seen.has(name)) throw bad('the name is declared twice');
  seen.add(name);
  const docText = typeof doc === 'string' ? doc : '';
  if (Array.isArray(p.choices)) {
    const choices = p.choices.map(String);
    if (choices.length === 0 || !choices.includes(String(p.default))) throw bad('default must be one of the choices');
    return { name, kind: 'choice', choices, default: String(p.default), doc: docText };
  }
  const { min, max, step } = p;
  if (!finite(min) || !finite(max) || !finite(step) || !finite(p.default)) throw bad('min, max, step and default must be finite numbers');
  if (min > max || step <= 0) throw bad('needs min ≤ max and step > 0');
  if (p.default < min || p.default > max) throw bad(`default ${p.default} is outside ${min}…${max}`);
  return { name, kind: 'number', unit: typeof p.unit === 'string' ? p.unit : '', min, max, step, default: p.default, doc: docText };
}

/** The scheme a loaded module declares; a malformed export throws with what is wrong. */
export function userScheme(m: LoadedModule): UserScheme {
  const e = m.exported;
  if (!isObject(e)) throw new UserCodeError('the module must `export default { title, params, create(params) }`');
  if (typeof e.title !== 'string' || e.title.trim() === '') throw new UserCodeError('title must be a non-empty string');
  if (!Array.isArray(e.params)) throw new UserCodeError('params must be an array (it may be empty)');
  if (typeof e.create !== 'function') throw new UserCodeError('create must be a function create(params) returning the controller');
  if (e.mode !== undefined && e.mode !== 'window' && e.mode !== 'burst') throw new UserCodeError('mode, if given, must be "window" or "burst"');
  const seen = new Set<string>();
  const params = e.params.map((p, i) => checkSpec(p, i, seen));
  const create = e.create as (p: ParamValues) => unknown;
  return {
    id: USER_SCHEME_ID,
    source: m.source,
    title: e.title.slice(0, 80),
    doc: 'Your own controller, written in the editor.',
    mode: (e.mode ?? 'window') as SchemeMode,
    params,
    create: (values) => {
      for (const p of params) if ('error' in checkParam(p, values[p.name])) throw new UserCodeError(`parameter ${p.name}: ${String(values[p.name])} does not fit its schema`);
      const guard = new Guard(m);
      return wrapController(
        guard.call('create', () => create.call(e, { ...values })),
        guard,
      );
    },
  };
}

/**
 * Runs user callbacks: names the one running for the loop guard, turns a throw into a UserCodeError
 * with the user's line and column. The loop guard reads the clock once every 1024 iterations.
 */
class Guard {
  callback = '';
  ticks = 0;
  started = 0;
  constructor(private readonly m: Pick<LoadedModule, 'url' | 'prepared'>) {}

  tick(): void {
    if ((++this.ticks & 1023) !== 0) return;
    const now = Date.now();
    if (this.ticks === 1024) this.started = now;
    else if (now - this.started > CALLBACK_BUDGET_MS) throw new Overrun(this.callback);
  }

  /** The callback about to run (plain field writes: this runs several times per packet). */
  enter(name: string): void {
    this.callback = name;
    this.ticks = 0;
    running = this;
    if (++watch.entered >= watch.next) watched(name);
  }

  fail(name: string, e: unknown): UserCodeError {
    if (e instanceof UserCodeError) return e;
    if (e instanceof Overrun) return new UserCodeError(`ran longer than its ${CALLBACK_BUDGET_MS} ms budget (an endless loop?) and was stopped`, e.callback);
    const at = locate(e, this.m.url, this.m.prepared);
    const message = e instanceof Error ? `${e.name}: ${e.message}` : `threw ${String(e)}`;
    return new UserCodeError(message, name, at?.line ?? null, at?.column ?? null);
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
 * platform makes of the text (a Blob URL in the worker, a data: URL in Node), its top-level code under
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

/** The guard of the callback running now; the loops' global tick reaches it, set once. */
let running: Guard | null = null;
(globalThis as Record<string, unknown>)[TICK] = () => running?.tick();

class Overrun extends Error {
  constructor(readonly callback: string) {
    super(`${callback} overran`);
  }
}

const REQUIRED = ['windowSize', 'onAck', 'onTimeout'] as const;
const OPTIONAL = ['pacingRate', 'burstSize', 'onSend', 'onLoss', 'timeoutMs', 'estimates'] as const;
type Method = (...a: unknown[]) => unknown;

function wrapController(made: unknown, guard: Guard): Controller {
  if (!isObject(made)) throw new UserCodeError('create must return an object with windowSize(), onAck(ack) and onTimeout(now)', 'create');
  for (const k of REQUIRED) if (typeof made[k] !== 'function') throw new UserCodeError(`the controller create returns has no ${k}() method`, 'create');
  for (const k of OPTIONAL) if (made[k] !== undefined && typeof made[k] !== 'function') throw new UserCodeError(`${k}, if given, must be a method`, 'create');
  return new UserController(made as Record<string, Method>, guard);
}

/** A count the sender uses: a number ≥ 0 (Infinity only where `infinite` allows it), or an error. */
function count(name: string, v: unknown, infinite: boolean): number {
  if (typeof v === 'number' && v >= 0 && (infinite || v !== Infinity)) return v;
  throw new UserCodeError(`returned ${typeof v === 'number' ? String(v) : typeof v}; it must be a ${infinite ? '' : 'finite '}number ≥ 0`, name);
}

/**
 * The Controller the senders drive. Missing optional methods behave as BaseController's defaults. Each
 * ACK reaches the user as a fresh object: senders reuse theirs, and a user may keep the one they got.
 */
class UserController implements Controller {
  constructor(
    private readonly o: Record<string, Method>,
    private readonly guard: Guard,
  ) {}

  // One method per arity: a rest parameter would allocate an array on every call.
  private invoke0(name: string, f: Method): unknown {
    this.guard.enter(name);
    try {
      return f.call(this.o);
    } catch (e) {
      throw this.guard.fail(name, e);
    }
  }

  private invoke2(name: string, f: Method, a: unknown, b?: unknown): void {
    this.guard.enter(name);
    try {
      f.call(this.o, a, b);
    } catch (e) {
      throw this.guard.fail(name, e);
    }
  }

  windowSize(): number {
    return count('windowSize', this.invoke0('windowSize', this.o.windowSize), false);
  }
  pacingRate(): number {
    return this.o.pacingRate ? count('pacingRate', this.invoke0('pacingRate', this.o.pacingRate), true) : Infinity;
  }
  burstSize(): number {
    return this.o.burstSize ? count('burstSize', this.invoke0('burstSize', this.o.burstSize), false) : Math.max(1, Math.floor(this.windowSize()));
  }
  onSend(seq: number, now: number): void {
    if (this.o.onSend) this.invoke2('onSend', this.o.onSend, seq, now);
  }
  onAck(a: Ack): void {
    this.invoke2('onAck', this.o.onAck, { seq: a.seq, sentAt: a.sentAt, receivedAt: a.receivedAt, now: a.now, cumulative: a.cumulative, inFlight: a.inFlight });
  }
  onLoss(now: number, seq: number): void {
    if (this.o.onLoss) this.invoke2('onLoss', this.o.onLoss, now, seq);
  }
  onTimeout(now: number): void {
    this.invoke2('onTimeout', this.o.onTimeout, now);
  }
  timeoutMs(): number {
    if (!this.o.timeoutMs) return 1000;
    const v = count('timeoutMs', this.invoke0('timeoutMs', this.o.timeoutMs), false);
    if (v > 0) return v;
    throw new UserCodeError('returned 0; the timer needs a wait above 0 ms', 'timeoutMs');
  }
  estimates(): Partial<Record<EstimateName, number>> {
    if (!this.o.estimates) return NONE;
    const e = this.invoke0('estimates', this.o.estimates);
    if (!isObject(e)) throw new UserCodeError('must return an object of numbers by name', 'estimates');
    // the usual case, only known names with numbers, passes as it is; anything else is filtered
    for (const k in e) if (!KNOWN.has(k) || typeof e[k] !== 'number') return known(e);
    return e as Partial<Record<EstimateName, number>>;
  }
}

const NONE = Object.freeze({});
const KNOWN: ReadonlySet<string> = new Set(ESTIMATES);

function known(e: Record<string, unknown>): Partial<Record<EstimateName, number>> {
  const out: Partial<Record<EstimateName, number>> = {};
  for (const k in e) if (KNOWN.has(k) && typeof e[k] === 'number') out[k as EstimateName] = e[k];
  return out;
}
