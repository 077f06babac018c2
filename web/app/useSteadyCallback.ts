import { useCallback, useRef } from 'react';

/**
 * A function of steady identity that calls the latest `f`: a memoised child handed it renders only when
 * its other props change. Only for handlers called after rendering (events, promises), never during it.
 */
export function useSteadyCallback<A extends unknown[], R>(f: (...args: A) => R): (...args: A) => R {
  const latest = useRef(f);
  latest.current = f;
  return useCallback((...args: A) => latest.current(...args), []);
}
