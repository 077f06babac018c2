import { useState } from 'react';
import { useAddress } from '../app/history.ts';
import { useEditorState } from '../editor/userCode.ts';
import type { Field, StateValues, ViewState } from '../state/codec.ts';
import { codeToQuery, decodeView, encodeView, type ViewId } from '../state/view.ts';

/** A view's state as the URL had it when the page opened, with what was wrong in it. */
export function useInitialState(fields: readonly Field[]): ViewState<StateValues> {
  const [initial] = useState(() => decodeView(fields, window.location.search));
  return initial;
}

/**
 * Keeps a view's state in the URL next to its name, and nothing else the URL had; when its runs use the
 * user's controller (`usesUserCode`), the link carries the code too, so it reproduces them in a browser
 * that never saw it.
 */
export function useUrlState(view: ViewId, fields: readonly Field[], value: StateValues, usesUserCode = false): void {
  const code = useEditorState().installed;
  const query = encodeView(view, fields, value);
  const text = (usesUserCode && code !== null ? codeToQuery(code, query) : query).toString();
  useAddress(text);
}
