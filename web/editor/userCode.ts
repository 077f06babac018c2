import { useSyncExternalStore } from 'react';
import { type SchemeCatalogue, withUserScheme } from '../../shared/controllers/registry.ts';
import { USER_SCHEME_ID, type UserScheme, withUserCode } from '../../shared/controllers/userInstalled.ts';
import type { ScenarioSpec } from '../../shared/scenarios/spec.ts';
import { codeFromQuery, MAX_CODE_CHARS } from '../state/view.ts';
import type { CheckMessage } from '../worker/userCheck.ts';
import type { CheckResult } from '../worker/userModule.ts';
import { userCodeWorker, type WorkerLike } from '../worker/sandboxHost.ts';
import userCheckUrl from '../worker/userCheck.ts?worker&url';
import { keptById } from '../app/keptById.ts';
import { EXAMPLE } from './example.ts';

/**
 * The user's controller on the page: its text (kept in localStorage), and, once a worker loaded it
 * without error, the scheme's declaration (title, params) the pickers and sliders use. The page never
 * runs the code: the declaration's `create` refuses, the workers load the text the runs carry.
 */

const STORAGE_KEY = 'pipefill.controller';
/** Where the user's own text waits while a link's code is in the editor. */
const OWN_BEFORE_LINK_KEY = 'pipefill.controller.beforeLink';
/** This browser's storage of the editor's texts (none: the text lives for this page only). */
const kept = keptById(() => localStorage, '');
/** Longest the check of a text may take (loading, one create, one windowSize) before its worker is replaced. */
export const CHECK_BUDGET_MS = 2000;

export interface EditorState {
  /** The text in the editor (saved as typed). */
  text: string;
  /** The text the runs use, once checked, and the scheme it declares. */
  installed: string | null;
  declared: UserScheme | null;
  error: Extract<CheckResult, { ok: false }> | null;
  /** Whether the editor panel is shown, and which side "Run" puts the controller on. */
  open: boolean;
  target: 'a' | 'b';
  /** The user's own text that a link's code replaced in the editor, kept until put back or let go. */
  ownBeforeLink: string | null;
}

let state: EditorState = { text: EXAMPLE, installed: null, declared: null, error: null, open: false, target: 'a', ownBeforeLink: null };
const listeners = new Set<() => void>();

function update(next: Partial<EditorState>): void {
  state = { ...state, ...next };
  for (const l of listeners) l();
}

export function useEditorState(): EditorState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}

/** The spec carrying the page's user scheme's code when one of its flows runs it: what a worker must load. */
export const withPageCode = (spec: ScenarioSpec): ScenarioSpec => withUserCode(spec, pageSchemes());

/** The page's schemes: the built-ins, and the user's once a worker checked its text. */
export const pageSchemes = (): SchemeCatalogue => schemesOf(state.declared);

/** One catalogue per declared scheme, so a render that asks twice gets the same list. */
let lastCatalogue: { declared: UserScheme | null; schemes: SchemeCatalogue } | null = null;
function schemesOf(declared: UserScheme | null): SchemeCatalogue {
  if (lastCatalogue?.declared !== declared) lastCatalogue = { declared, schemes: withUserScheme(declared) };
  return lastCatalogue.schemes;
}

/** The text now (a handler's render may be older than the last keystroke). */
export const currentText = () => state.text;

export function setText(text: string): void {
  kept.set(STORAGE_KEY, text);
  update({ text });
}

export function showEditor(open: boolean, target = state.target, text?: string): void {
  if (text !== undefined) setText(text);
  update({ open, target });
}

let checker: WorkerLike | null = null;
let lastCheck = 0;
/** A check under way: its answer, and the start of its budget once the worker took the text. */
interface Pending {
  resolve(r: CheckResult | null): void;
  started(): void;
}
/** Checks under way, by id; a newer check answers the older ones with null (their text is no longer wanted). */
const checking = new Map<number, Pending>();

function answer(id: number, r: CheckResult | null): void {
  checking.get(id)?.resolve(r);
  checking.delete(id);
}

function checkWorker(): WorkerLike {
  const w = userCodeWorker(userCheckUrl);
  w.onmessage = (e: { data: CheckMessage }) => ('started' in e.data ? checking.get(e.data.id)?.started() : answer(e.data.id, e.data));
  w.onerror = (e) => {
    e.preventDefault();
    // the next check starts a fresh worker: this one may never have started (the sandbox frame did not)
    w.terminate();
    if (checker === w) checker = null;
    for (const id of [...checking.keys()]) answer(id, { ok: false, message: `your controller could not be checked: ${e.message || 'its worker failed'}`, line: null, column: null });
  };
  return w;
}

/**
 * Loads the text in a worker of its own (kept from one check to the next); one that overruns the budget
 * is ended and replaced by the next check. Resolves null when a newer check replaced this one.
 */
function check(source: string): Promise<CheckResult | null> {
  for (const id of [...checking.keys()]) answer(id, null);
  const id = ++lastCheck;
  checker ??= checkWorker();
  const worker = checker;
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const overrun = () => {
      worker.terminate();
      if (checker === worker) checker = null;
      answer(id, { ok: false, message: `your controller did not finish loading within ${CHECK_BUDGET_MS} ms: its worker was stopped and replaced`, line: null, column: null });
    };
    checking.set(id, {
      // from when the text's module starts to run: the worker's own start and the checker's load on a busy machine are not the text's time
      started: () => (timer = setTimeout(overrun, CHECK_BUDGET_MS)),
      resolve: (r) => {
        clearTimeout(timer);
        resolve(r);
      },
    });
    worker.postMessage({ id, source });
  });
}

/** A text too long for a link, refused before any worker loads it. */
const tooLong = (source: string): CheckResult | null =>
  source.length > MAX_CODE_CHARS ? { ok: false, message: `the controller is longer than ${MAX_CODE_CHARS} characters`, line: null, column: null } : null;

/** How long a submission waits for its text's check at most, ms: a checker that never starts must not hold the button. */
const SEND_CHECK_MS = 10_000;

/**
 * Whether a text would load where the contest scores it, checked here first as the command line loads a file
 * before sending it: the relay would fail a text that does not load only after it took the id's turn. The
 * problem (shown in the editor too, where it is) or null. The text installed already was checked as it was
 * (the usual case: run, then submitted), and is not checked again; the relay judges the size itself, before
 * the turn is taken.
 */
export async function problemBeforeSending(source: string): Promise<string | null> {
  if (source === state.installed && state.error === null) return null;
  let late: ReturnType<typeof setTimeout> | undefined;
  const overdue = new Promise<'late'>((resolve) => (late = setTimeout(() => resolve('late'), SEND_CHECK_MS)));
  const r = await Promise.race([check(source), overdue]).finally(() => clearTimeout(late));
  if (r === 'late') return `it could not be checked within ${SEND_CHECK_MS / 1000} s: submit it again`;
  if (r === null) return 'it was checked again meanwhile: submit it once more';
  // the text shown checked: an error the editor still shows was another text's
  update({ error: r.ok ? null : r });
  return r.ok ? null : r.message;
}

/**
 * Checks a text and, if it loads, makes it the user scheme (the caller then re-runs). A failing text
 * leaves the installed one, and the runs, as they were. `checkIn` checks it elsewhere than in the
 * checking worker (in the worker that runs it next, in the same pass); null: a newer check replaced it.
 */
export async function install(source: string, checkIn: (source: string) => Promise<CheckResult | null> = check): Promise<boolean> {
  // the installed text was checked already: Run again only puts it on a side
  if (source === state.installed && state.error === null) return true;
  // too long for a link: refused before any worker loads it
  const r = tooLong(source) ?? (await checkIn(source));
  if (r === null) return false;
  if (!r.ok) {
    update({ error: r });
    return false;
  }
  const declared: UserScheme = {
    id: USER_SCHEME_ID,
    title: r.title,
    doc: 'Your own controller, written in the editor.',
    mode: r.mode,
    params: r.params,
    source,
    create: () => {
      throw new Error('the user controller runs in the workers only');
    },
  };
  update({ installed: source, declared, error: null });
  return true;
}

/**
 * At page load: the text a link carries (else the saved one) is checked and installed before the
 * experiment is read from the URL, so a link that uses it opens with it. A failure opens the editor on it.
 */
export async function restoreUserCode(search: string): Promise<void> {
  const fromLink = codeFromQuery(search);
  const saved = kept.get(STORAGE_KEY);
  const linked = 'code' in fromLink ? fromLink.code : null;
  // A link's code takes the editor, as it runs; the user's own text is kept aside, to put back. One kept
  // already stays: the text saved now is another link's, or a draft of it.
  const aside = kept.get(OWN_BEFORE_LINK_KEY);
  if (aside === null && linked !== null && saved !== null && saved !== linked && saved !== EXAMPLE) kept.set(OWN_BEFORE_LINK_KEY, saved);
  update({ ownBeforeLink: kept.get(OWN_BEFORE_LINK_KEY) });
  const text = linked ?? saved;
  if (text !== null) setText(text);
  // The page's notices say what the damage does to the runs; the editor says what it shows instead.
  const shows = saved !== null ? 'your own controller, as this browser saved it' : 'the example';
  if ('error' in fromLink) update({ error: { ok: false, message: `This link's controller code is damaged, so the editor shows ${shows}, not the link's.`, line: null, column: null }, open: true });
  else if (text !== null && !(await install(text))) update({ open: true });
}

/** Puts the user's own text, which a link's code replaced, back in the editor, and installs it. */
export async function putBackOwnText(): Promise<void> {
  const own = state.ownBeforeLink;
  if (own === null) return;
  letGoOwnText();
  setText(own);
  if (!(await install(own))) update({ open: true });
}

/** Keeps the link's code: the user's own text, kept aside, goes. */
export function letGoOwnText(): void {
  kept.remove(OWN_BEFORE_LINK_KEY);
  update({ ownBeforeLink: null });
}

/**
 * An imported run's controller (the CSV's spec line carries the code of a run that used one) goes into
 * the editor and is installed, so the run can be made again; the user confirms before their own text is
 * replaced. The code runs only in the workers, as any other.
 */
export async function restoreImportedCode(spec: unknown): Promise<void> {
  const code = typeof spec === 'object' && spec !== null && 'code' in spec ? spec.code : undefined;
  if (typeof code !== 'string') return;
  if (code !== state.text) {
    if (state.text !== EXAMPLE && !window.confirm('The imported run carries the code of its controller: replace the text in the editor with it?')) return;
    showEditor(true, state.target, code);
  }
  if (state.installed !== code && !(await install(code))) update({ open: true });
}
