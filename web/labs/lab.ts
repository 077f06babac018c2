import { useEffect, useMemo } from 'react';
import { useEditorState } from '../editor/userCode.ts';
import { type Decoded, decode, encode, type Field, type StateValues } from '../state/codec.ts';
import { codeToQuery } from '../state/experiment.ts';

/** A lab's state as the URL had it when the page opened, with what was wrong in it. */
export function useInitialState(schema: readonly Field[]): Decoded<StateValues> {
  return useMemo(() => decode(schema, new URLSearchParams(window.location.search)), [schema]);
}

/**
 * Keeps a lab's state in the URL next to its view name; when its runs use the user's controller
 * (`usesUserCode`), the link carries the code too, so it reproduces them in a browser that never saw it.
 */
export function useUrlState(view: string, schema: readonly Field[], value: StateValues, usesUserCode = false): void {
  const code = useEditorState().installed;
  const query = encode(schema, value);
  const text = (usesUserCode && code !== null ? codeToQuery(code, query) : query).toString();
  useEffect(() => {
    window.history.replaceState(null, '', `?view=${view}${text ? `&${text}` : ''}`);
  }, [view, text]);
}
