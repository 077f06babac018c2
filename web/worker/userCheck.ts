/// <reference lib="webworker" />
import { UserCodeError } from '../../shared/controllers/userCode.ts';
import { withDefaults } from '../../shared/controllers/types.ts';
import { loadUserCode } from './userModule.ts';
import './sandbox.ts';

declare const self: DedicatedWorkerGlobalScope;

/** What the page learns of a text: the scheme it declares (to build sliders), or where it fails. */
export type CheckResult =
  | { ok: true; title: string; mode: 'window' | 'burst'; params: import('../../shared/controllers/types.ts').ParamSpec[] }
  | { ok: false; message: string; line: number | null; column: number | null };

/**
 * Loads a controller's text and makes one controller at the defaults, asking it for its window once:
 * the page installs the text only when this passes.
 */
self.onmessage = async (e: MessageEvent<{ id: number; source: string }>) => {
  let result: CheckResult;
  try {
    const s = await loadUserCode(e.data.source);
    s.create(withDefaults(s.params)).windowSize();
    result = { ok: true, title: s.title, mode: s.mode, params: [...s.params] };
  } catch (err) {
    const u = err instanceof UserCodeError ? err : null;
    result = { ok: false, message: (err as Error).message, line: u?.line ?? null, column: u?.column ?? null };
  }
  self.postMessage({ ...result, id: e.data.id });
};
