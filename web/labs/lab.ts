import { useEffect } from 'react';

/** Keeps a lab's state in the URL next to its view name. */
export function useUrlState(view: string, state: URLSearchParams): void {
  const text = state.toString();
  useEffect(() => {
    window.history.replaceState(null, '', `?view=${view}${text ? `&${text}` : ''}`);
  }, [view, text]);
}

export const query = () => new URLSearchParams(window.location.search);
