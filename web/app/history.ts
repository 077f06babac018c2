import { useEffect, useState } from 'react';
import { throttledWriter } from './throttle.ts';

/**
 * The address as the browser's history: one entry per settled change, so Back and Forward step through
 * them. A change settles where the DOM says it is done: a slider let go, a typed value's Enter or blur
 * (the `change` event), a choice, a click. The first write after a settle starts an entry, the rest of a
 * drag or of typing rewrite it; the first write of a view (the address put in order as the page opens)
 * rewrites the entry the page opened on.
 */
let settled = true;
let opening = true;
/** Writes held back (a drag's last step) that a settle must put down first, into the entry they belong to. */
const held = new Set<() => void>();

function writeAddress(query: string): void {
  const url = `?${query}`;
  if (url !== window.location.search) {
    if (settled && !opening) window.history.pushState(null, '', url);
    else window.history.replaceState(null, '', url);
    // putting the address in order as a view opens is no change of the user's
    if (!opening) settled = false;
  }
  opening = false;
}

const flushAll = () => {
  for (const flush of held) flush();
};

function settle(e: Event): void {
  if (e instanceof KeyboardEvent && e.key !== 'Enter') return;
  flushAll();
  settled = true;
}

const SETTLES = ['change', 'click', 'keydown'];

/**
 * Starts listening for settled changes; Back or Forward calls `onMove`, for the view to read its state
 * again. Leaving the page puts down what is held back.
 */
export function listenToHistory(onMove: () => void): () => void {
  const moved = () => {
    opening = settled = true;
    onMove();
  };
  for (const type of SETTLES) document.addEventListener(type, settle, true);
  window.addEventListener('popstate', moved);
  window.addEventListener('pagehide', flushAll);
  return () => {
    for (const type of SETTLES) document.removeEventListener(type, settle, true);
    window.removeEventListener('popstate', moved);
    window.removeEventListener('pagehide', flushAll);
  };
}

/**
 * A writer of a view's state into the address, at most once per `everyMs` (a write costs the page tens of
 * ms: the browser takes the new address, and its icon, again). `close` forgets it.
 */
export function addressWriter(everyMs: number): { write(query: string): void; close(): void } {
  const writer = throttledWriter(writeAddress, everyMs);
  held.add(writer.flush);
  return {
    write: writer.write,
    close: () => {
      writer.flush();
      held.delete(writer.flush);
    },
  };
}

/** Keeps a view's state in the address, `query` written as it changes (none: the address stays as the page opened it). */
export function useAddress(query: string | null, everyMs = 300): void {
  const [address] = useState(() => addressWriter(everyMs));
  useEffect(() => () => address.close(), [address]);
  useEffect(() => {
    if (query !== null) address.write(query);
  }, [address, query]);
}
