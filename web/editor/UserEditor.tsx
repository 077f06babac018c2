import { javascript } from '@codemirror/lang-javascript';
import { type Diagnostic, lintGutter, setDiagnostics } from '@codemirror/lint';
import { keymap } from '@codemirror/view';
import { basicSetup, EditorView } from 'codemirror';
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { findScheme } from '../../shared/controllers/registry.ts';
import { CALLBACK_BUDGET_MS, USER_SCHEME_ID } from '../../shared/controllers/userInstalled.ts';
import { ContestSubmit } from '../contest/ContestSubmit.tsx';
import type { Experiment } from '../state/experiment.ts';
import type { EditorProps } from './LazyEditor.tsx';
import { EXAMPLE } from './example.ts';
import './editor.css';
import { currentText, type EditorState, install, letGoOwnText, putBackOwnText, setText, showEditor, useEditorState } from './userCode.ts';
import { pageSchemes } from './userCode.ts';

type UserCodeError = EditorState['error'];

/** Puts the installed user scheme on the target side, keeping the parameters it still declares. */
function withUserOnSide(e: Experiment, target: 'a' | 'b'): Experiment {
  const names = new Set((findScheme(USER_SCHEME_ID, pageSchemes())?.params ?? []).map((p) => p.name));
  const kept = e[target].scheme === USER_SCHEME_ID ? Object.fromEntries(Object.entries(e[target].params).filter(([k]) => names.has(k))) : {};
  return { ...e, [target]: { scheme: USER_SCHEME_ID, params: kept } };
}

/** The error's underline: from its column to the end of its line (none when it has no line in the text). */
function diagnosticsFor(doc: EditorView['state']['doc'], err: UserCodeError): Diagnostic[] {
  if (!err || err.line === null || err.line > doc.lines) return [];
  const line = doc.line(err.line);
  const from = Math.min(line.to, line.from + Math.max(0, (err.column ?? 1) - 1));
  return [{ from, to: Math.max(line.to, from + 1 <= doc.length ? from + 1 : from), severity: 'error', message: err.message }];
}

/**
 * CodeMirror over the stored text: made once, its edits flow to the store, and a text changed outside it
 * ("Edit a copy", a link) or a new error is shown in it.
 */
function useCodeMirror(parent: React.RefObject<HTMLDivElement | null>, text: string, error: UserCodeError, open: boolean, run: () => void): void {
  const view = useRef<EditorView | null>(null);
  const runRef = useRef(run);
  runRef.current = run;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the view is made once; the store follows its edits.
  useEffect(() => {
    const v = new EditorView({
      doc: text,
      parent: parent.current!,
      extensions: [
        keymap.of([{ key: 'Mod-Enter', run: () => (runRef.current(), true) }]),
        basicSetup,
        javascript(),
        lintGutter(),
        EditorView.updateListener.of((u) => u.docChanged && setText(u.state.doc.toString())),
        EditorView.contentAttributes.of({ 'aria-label': 'controller code' }),
      ],
    });
    view.current = v;
    return () => v.destroy();
  }, []);
  // Opened, the code takes the keyboard (the panel comes last in the page's order); closed, the control that opened it gets it back.
  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    view.current?.focus();
    return () => {
      // hidden, the panel dropped the focus it held (to the page's body)
      const dropped = document.activeElement === document.body || Boolean(view.current?.dom.closest('section')?.contains(document.activeElement));
      if (opener?.isConnected && dropped) opener.focus();
    };
  }, [open]);
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== text) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text } });
  }, [text]);
  useEffect(() => {
    const v = view.current;
    if (v) v.dispatch(setDiagnostics(v.state, diagnosticsFor(v.state.doc, error)));
  }, [error]);
}

/** The editor panel: CodeMirror with the user's controller, run into a side, errors underlined. */
export function UserEditor({ e, set, checkAndRun }: EditorProps) {
  const st = useEditorState();
  const host = useRef<HTMLDivElement>(null);
  const [help, setHelp] = useState(false);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    const target = st.target;
    setBusy(true);
    // new code is checked by the worker that runs it, in the same pass; a live side checks it apart
    const ok = await install(currentText(), e.live && target === 'a' ? undefined : (code) => checkAndRun(target, withUserOnSide(e, target), code));
    setBusy(false);
    if (ok) set(withUserOnSide(e, target));
  };
  useCodeMirror(host, st.text, st.error, st.open, () => void run());

  // On the body, so no panel's stacking context puts the charts over it.
  return createPortal(
    <section
      className="user-editor"
      aria-label="Your controller"
      hidden={!st.open}
      // Escape closes the panel, unless the code shows something Escape closes first (a completion list, the search bar)
      onKeyDownCapture={(ev) => ev.key === 'Escape' && !ev.currentTarget.querySelector('.cm-tooltip, .cm-panel') && showEditor(false)}
    >
      <header>
        <strong>Your controller</strong>
        <label>
          run as
          <select value={st.target} onChange={(ev) => showEditor(true, ev.target.value as 'a' | 'b')} aria-label="run the controller as">
            <option value="a">A</option>
            <option value="b">B</option>
          </select>
        </label>
        <button type="button" onClick={() => void run()} disabled={busy} title="Ctrl+Enter">
          Run ▶
        </button>
        <button type="button" onClick={() => setHelp(!help)} aria-expanded={help}>
          Help
        </button>
        <button type="button" onClick={() => showEditor(false)} aria-label="close the editor">
          ×
        </button>
      </header>
      <ContestSubmit code={currentText} />
      {st.ownBeforeLink !== null && (
        <p className="hint" data-testid="own-before-link">
          A link’s controller took the editor’s place of yours, which is kept.{' '}
          <button type="button" className="link" onClick={() => void putBackOwnText()}>
            Put mine back
          </button>{' '}
          <button type="button" className="link" onClick={letGoOwnText}>
            Keep the link’s
          </button>
        </p>
      )}
      {st.error && (
        <p className="error" role="alert" data-testid="editor-error">
          {st.error.message}
        </p>
      )}
      {help && <EditorHelp />}
      <div className="cm-host" ref={host} />
    </section>,
    document.body,
  );
}

function EditorHelp() {
  return (
    <div className="editor-help">
      <p>
        A controller is an ES module whose default export is <code>{'{ title, params, create(params) }'}</code>. <code>params</code> declares each parameter as the built-ins do —{' '}
        <code>{'{ name, unit, min, max, step, default, doc }'}</code> for a number, <code>{'{ name, choices, default, doc }'}</code> for a choice — and the sidebar and the labs' sweeps make their
        sliders from it. <code>create</code> returns an object with <code>windowSize()</code>, <code>onAck(ack)</code> and <code>onTimeout(now)</code>; optionally <code>pacingRate()</code>,{' '}
        <code>burstSize()</code>, <code>onSend(seq, now)</code>, <code>onLoss(now, seq)</code>, <code>timeoutMs()</code> (default 1000) and <code>estimates()</code>.{' '}
        <code>create(params, random)</code> also gets <code>random()</code>, numbers in [0, 1) from the run's seeded stream: use it rather than <code>Math.random</code>, so the same seed makes the
        same run.
      </p>
      <p>
        It runs in a worker, never on the page, and with no network: <code>fetch</code>, <code>XMLHttpRequest</code>, <code>WebSocket</code>, <code>EventSource</code>, <code>importScripts</code>,
        other workers, <code>eval</code>, <code>new Function</code> and <code>import</code> of other modules are blocked, so keep the whole controller in this one module. A callback that runs longer
        than {CALLBACK_BUDGET_MS} ms is stopped and named; a throw shows its line and column; a window that is NaN, negative or infinite is an error. Ctrl+Enter runs it. "Edit a copy" under a
        controller opens a readable version of that built-in that gives the same numbers.
      </p>
      <pre>{EXAMPLE}</pre>
    </div>
  );
}
