import { lazy, Suspense, useRef } from 'react';
import type { Experiment } from '../state/experiment.ts';
import type { CheckResult } from '../worker/userModule.ts';
import { useEditorState } from './userCode.ts';

/** CodeMirror is most of the page's weight: it loads the first time the editor opens, not with the page. */
const UserEditor = lazy(() => import('./UserEditor.tsx').then((m) => ({ default: m.UserEditor })));

/** Runs a side of the experiment with new code, checking it in the same worker pass (web/app/useRuns.ts). */
export type CheckAndRun = (slot: 'a' | 'b', next: Experiment, code: string) => Promise<CheckResult | null>;

export interface EditorProps {
  e: Experiment;
  set(e: Experiment): void;
  checkAndRun: CheckAndRun;
}

/** The controller editor, mounted once it has been opened (and kept, so its view and history survive closing it). */
export function LazyEditor(props: EditorProps) {
  const { open } = useEditorState();
  const opened = useRef(false);
  if (open) opened.current = true;
  if (!opened.current) return null;
  return (
    <Suspense fallback={<p role="status">Loading the editor…</p>}>
      <UserEditor {...props} />
    </Suspense>
  );
}
