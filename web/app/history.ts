import { useEffect, useState } from 'react';
import { throttledWriter } from './throttle.ts';

/**
 * The address as the browser's history: one entry per settled change, so Back and Forward step through
 * them. A change settles where the DOM says it is done: a slider let go, a typed value's Enter or blur
 * (the `change` event), a choice, a click. The first write after a settle starts an entry, the rest of a
 * drag or of typing rewrite it; the first write of a view (the address put in order as the page opens)
 * rewrites the entry the page opened on.
 *
 * A slider let go does not write its last step at once but a whole spell later: the browser takes a new
 * address on the same two cores as the runs that step asked for, and the step was drawn 10–15 ms later
 * when its write came with it. Its settle is due until that write is made, or until the next action
 * begins (its first pointer press, key or input puts the held write into the entry it belongs to). Back
 * or Forward drops what is held: the entry moved to is what the view shows.
 */
let settled = true;
let opening = true;
let settleDue = false;
/** The writers of the views' addresses, each holding back at most a value. */
const writers = new Set<ReturnType<typeof throttledWriter>>();
const holding = () => [...writers].some((w) => w.holding());

function writeAddress(query: string): void {
  const url = `?${query}`;
  if (url !== window.location.search) {
    if (settled && !opening) window.history.pushState(null, '', url);
    else window.history.replaceState(null, '', url);
    // putting the address in order as a view opens is no change of the user's
    if (!opening) settled = false;
  }
  opening = false;
  if (settleDue && !holding()) {
    settleDue = false;
    settled = true;
  }
}

/** Writes what is held back now, into the entry it belongs to; a settle that waited for it is made. */
export function flushAddress(): void {
  for (const w of writers) w.flush();
  settleDue = false;
  settled = true;
}

const isSlider = (t: EventTarget | null) => t instanceof HTMLInputElement && t.type === 'range';

function settle(e: Event): void {
  if (e instanceof KeyboardEvent && e.key !== 'Enter') return;
  if (e.type === 'change' && isSlider(e.target) && holding()) {
    settleDue = true;
    for (const w of writers) w.postpone();
    return;
  }
  // the click that ends a slider's drag leaves its write where the drag's end put it
  if (settleDue && e.type === 'click' && isSlider(e.target)) return;
  flushAddress();
}

/** What begins an action: a settle still due is made before it, so the action's writes come after. */
function begin(): void {
  if (settleDue) flushAddress();
}

const SETTLES = ['change', 'click', 'keydown'];
const BEGINNINGS = ['pointerdown', 'keydown', 'input'];

/**
 * Starts listening for settled changes; Back or Forward calls `onMove`, for the view to read its state
 * again. Leaving the page puts down what is held back.
 */
export function listenToHistory(onMove: () => void): () => void {
  const moved = () => {
    for (const w of writers) w.drop();
    opening = settled = true;
    settleDue = false;
    onMove();
  };
  for (const type of BEGINNINGS) document.addEventListener(type, begin, true);
  for (const type of SETTLES) document.addEventListener(type, settle, true);
  window.addEventListener('popstate', moved);
  window.addEventListener('pagehide', flushAddress);
  return () => {
    for (const type of BEGINNINGS) document.removeEventListener(type, begin, true);
    for (const type of SETTLES) document.removeEventListener(type, settle, true);
    window.removeEventListener('popstate', moved);
    window.removeEventListener('pagehide', flushAddress);
  };
}

/**
 * A writer of a view's state into the address, at most once per `everyMs` (a write costs the page tens of
 * ms: the browser takes the new address, and its icon, again). `close` forgets it.
 */
export function addressWriter(everyMs: number): { write(query: string): void; close(): void } {
  const writer = throttledWriter(writeAddress, everyMs);
  writers.add(writer);
  return {
    write: writer.write,
    close: () => {
      writer.flush();
      writers.delete(writer);
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
