import { useEffect, useMemo } from 'react';
import { type Decoded, decode, encode, type Field, type StateValues } from '../state/codec.ts';

/** A lab's state as the URL had it when the page opened, with what was wrong in it. */
export function useInitialState(schema: readonly Field[]): Decoded<StateValues> {
  return useMemo(() => decode(schema, new URLSearchParams(window.location.search)), [schema]);
}

/** Keeps a lab's state in the URL next to its view name. */
export function useUrlState(view: string, schema: readonly Field[], value: StateValues): void {
  const text = encode(schema, value).toString();
  useEffect(() => {
    window.history.replaceState(null, '', `?view=${view}${text ? `&${text}` : ''}`);
  }, [view, text]);
}
