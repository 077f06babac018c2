/// <reference lib="webworker" />
import { SCHEMES, type SchemeCatalogue, withUserScheme } from '../../shared/controllers/registry.ts';
import { type ParamSpec, withDefaults } from '../../shared/controllers/types.ts';
import type { UserScheme } from '../../shared/controllers/userInstalled.ts';
import { watchCallbacks } from '../../shared/controllers/userWatch.ts';
import type { ScenarioSpec } from '../../shared/scenarios/spec.ts';
import type { WorkerResponse } from './protocol.ts';
import { toPage } from './host.ts';
import { USER_MODULE_URL } from './sandbox.ts';

/**
 * The user's controller inside a worker: its module is imported from a data: URL (never on the page's
 * thread) as the scheme "user", in the catalogue the worker's runs are given. The same text is loaded once
 * per worker.
 */
let loaded: { source: string; scheme: Promise<UserScheme> } | null = null;

/**
 * The text as a data: URL, which the worker imports without asking the browser's process (a Blob URL is
 * registered there, then fetched back from it).
 */
const moduleUrl = (code: string) => USER_MODULE_URL + encodeURIComponent(code);

/**
 * `evaluating` is told as the text's own module is about to run, after the checker has loaded and prepared
 * it (at once when the text was loaded before): what comes after is the user's code's time.
 */
export function loadUserCode(source: string, evaluating: () => void = () => {}): Promise<UserScheme> {
  if (loaded?.source !== source) {
    // The checker (a JavaScript parser) loads with the first user code: most runs never need it.
    const toUrl = (code: string) => {
      evaluating();
      return moduleUrl(code);
    };
    const scheme = import('../../shared/controllers/userScheme.ts').then((m) => m.loadUserScheme(source, toUrl));
    loaded = { source, scheme };
    // a failed text stays failed; the next different text loads afresh
  } else evaluating();
  return loaded.scheme;
}

/** The schemes a run or a live fetch may name: the built-ins, and the user's when it carries their code. */
export async function catalogueFor(code: string | undefined): Promise<SchemeCatalogue> {
  return code === undefined ? SCHEMES : withUserScheme(await loadUserCode(code));
}

/** What the page learns of a text: the scheme it declares (to build sliders), or where it fails. */
export type CheckResult = { ok: true; title: string; mode: 'window' | 'burst'; params: ParamSpec[] } | { ok: false; message: string; line: number | null; column: number | null };

/**
 * Loads a controller's text and makes one controller at the defaults, asking it for its window once:
 * the page installs the text only when this passes. `evaluating`: as in loadUserCode.
 */
export async function checkCode(source: string, evaluating?: () => void): Promise<CheckResult> {
  try {
    const s = await loadUserCode(source, evaluating);
    s.create(withDefaults(s.params)).windowSize();
    return { ok: true, title: s.title, mode: s.mode, params: [...s.params] };
  } catch (err) {
    // loaded by now with the checker, which stays out of the worker until user code comes
    const { UserCodeError } = await import('../../shared/controllers/userCode.ts');
    const u = err instanceof UserCodeError ? err : null;
    return { ok: false, message: (err as Error).message, line: u?.line ?? null, column: u?.column ?? null };
  }
}

/**
 * Runs `run` (the simulation of `spec`) with beats of its user code posted to the page, which ends this
 * worker if they stop (web/worker/watchdog.ts); the last beat says the user code is done.
 */
export async function watchRun<T>(id: number, spec: ScenarioSpec, probeFrom: number | undefined, run: () => Promise<T>): Promise<T> {
  if (spec.code === undefined) return run();
  const post = (callback: string | null, entered: number) => toPage({ id, kind: 'beat', callback, entered } satisfies WorkerResponse);
  watchCallbacks(post, probeFrom);
  try {
    return await run();
  } finally {
    watchCallbacks(null);
    post(null, 0);
  }
}
