/// <reference types="ses" />
import { SCHEMES, type SchemeCatalogue, withUserScheme } from '../../shared/controllers/registry.ts';
import { USER_SCHEME_ID } from '../../shared/controllers/userInstalled.ts';
import { type PreparedCode, prepareUserCode, TICK, UserCodeError } from '../../shared/controllers/userCode.ts';
import { Guard, userScheme } from '../../shared/controllers/userScheme.ts';
import { withLinkValues } from '../../shared/link/params.ts';
import { contestOn } from '../../shared/scenarios/contestOn.ts';
import { flow } from '../../shared/scenarios/presets.ts';
import { summaryOfRun } from '../../shared/scenarios/measureRun.ts';
import { parseTrace, type Trace } from '../../shared/trace/mahimahi.ts';
import { moduleAsScript, undeclaredNames } from './moduleScript.ts';
import type { RunInput, RunOutput } from './runProtocol.ts';

/**
 * One contest run inside the sandbox process, after `lockdown()` froze every shared intrinsic: the
 * controller's module is evaluated in a compartment whose only global beyond the language's own is the
 * loop guard, and the model drives it exactly as `npm run sim` does (same spec, seed and summary).
 */

/** The name stacks give the controller's text, as "controller.js:line:column". */
const URL = 'controller.js';

/** The compartment's script is the module one line down (moduleAsScript's opening line). */
const shifted = (prepared: PreparedCode): PreparedCode => ({ code: prepared.code, original: (p) => prepared.original({ line: p.line - 1, column: p.column }) });

/** Loads the controller into a compartment: the catalogue of the built-ins and it, as the user scheme. */
function loadController(source: string): SchemeCatalogue {
  const prepared = prepareUserCode(source);
  const mapped = shifted(prepared);
  const guard = new Guard({ url: URL, prepared: mapped });
  const compartment = new Compartment({ [TICK]: harden((globalThis as Record<string, unknown>)[TICK]) });
  for (const name of undeclaredNames(prepared.code)) if (!(name in compartment.globalThis)) throwOnRead(compartment.globalThis, name);
  const exported = guard.call('the module body', () => compartment.evaluate(`${moduleAsScript(prepared.code)}\n//# sourceURL=${URL}`));
  return withUserScheme(userScheme({ exported, url: URL, prepared: mapped, source }));
}

/** A global whose every read throws as V8 throws for a name nothing declares (writes do already, in strict code). */
function throwOnRead(global: object, name: string): void {
  const missing = () => {
    throw new ReferenceError(`${name} is not defined`);
  };
  Object.defineProperty(global, name, { get: missing, set: missing });
}

/** Runs the contest on the input's trace; the controller's faults come back as its error sentence. */
export function contestRun(input: RunInput): RunOutput {
  return contestRunOf(input, () => (input.code !== null ? loadController(input.code) : SCHEMES));
}

/**
 * The contest run of the input's scheme (the controller's, as "user", when it has code) in the catalogue
 * `schemes` gives. The sandbox loads a controller into a compartment; trusted code loaded as the command
 * line loads it is scored the same. Its faults, loading included, come back as its error sentence.
 */
export function contestRunOf(input: RunInput, schemes: () => SchemeCatalogue): RunOutput {
  const traces = new Map<string, Trace>();
  const load = (name: string) => {
    const text = input.files[name];
    if (text === undefined) throw new Error(`the sandbox was given no trace ${name}`);
    if (!traces.has(name)) traces.set(name, parseTrace(text, name));
    return traces.get(name)!;
  };
  try {
    const catalogue = schemes();
    const scheme = input.code !== null ? USER_SCHEME_ID : input.scheme;
    const spec = contestOn(input.trace, [flow(scheme)], 1, (p) => load(p).times.at(-1)!);
    spec.link = withLinkValues(spec.link, input.link);
    const summary = summaryOfRun(spec, load, catalogue);
    const { throughputMbps, delay95, power, score } = summary.all;
    return { ok: true, throughputMbps, delay95, power, score, omniscient: summary.omniscient ?? null };
  } catch (e) {
    // the loop guard's stop is a UserCodeError too, told by its sentence (userScheme.ts)
    const kind = e instanceof UserCodeError && e.detail.startsWith('ran longer than') ? 'time' : 'exception';
    return { ok: false, kind, error: cut(e instanceof UserCodeError ? e.message : `your controller: ${describe(e)}`) };
  }
}

/**
 * The most of an error sentence sent: the relay reads at most 64 KB of a run's answer (sandbox.ts), and
 * JSON may write a character as six, so a longer message would cut the answer itself.
 */
const MAX_ERROR_CHARS = 4000;

/** An error sentence at most MAX_ERROR_CHARS long, saying how long it was if it was longer. */
function cut(error: string): string {
  return error.length <= MAX_ERROR_CHARS ? error : `${error.slice(0, MAX_ERROR_CHARS)}… (cut: the message was ${error.length} characters)`;
}

/** A thrown value in words; a frozen-intrinsic refusal is the usual one here. */
function describe(e: unknown): string {
  try {
    return e instanceof Error ? `${e.name}: ${e.message}` : `threw ${String(e)}`;
  } catch {
    return 'threw a value that cannot be printed';
  }
}
