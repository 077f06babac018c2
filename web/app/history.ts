import { useEffect, useState } from 'react';
import { throttledWriter } from './throttle.ts';

/**
 * The address as the browser's history: one entry per settled change, so Back and Forward step through
 * them. A change settles where the DOM says it is done: a slider let go, a typed value's Enter or blur
 * (the `change` event), a choice, a click. The first write after a settle starts an entry, the rest of a
 * drag or of typing rewrite it; the first write of a view (the address put in order as the page opens)
 * rewrites the entry the page opened on.
 *
 * A new action settles what came before it: a pointer press, or a key anywhere but in a box being typed in
 * (a typed value is one change until its Enter or blur). So a choice's own write starts its entry, and the
 * next action's first write starts the next.
 *
 * A slider let go does not write its last step at once but a whole spell later: the browser takes a new
 * address on the same two cores as the runs that step asked for, and the step was drawn 10–15 ms later
 * when its write came with it. Its settle is due until that write is made, or until the next action
 * begins (which puts the held write into the entry it belongs to first). Back or Forward drops what is
 * held (the entry moved to is what the view shows), keeping it for the entry it belonged to: Forward to
 * that entry shows the drag's end, not the step its entry was started with.
 */
let settled = true;
let opening = true;
let settleDue = false;
/** Names this page's entries (`history.state`), so a write held back when Back left one is put in on Forward. */
const PAGE = Math.random().toString(36).slice(2);
let entries = 0;
/** The entry the address is in now, when this page made it. */
let here: string | null = null;
const entryOf = (state: unknown) => (state as { entry?: string } | null)?.entry ?? null;
/** Writes dropped by Back or Forward, by the entry they belonged to. */
const leftBehind = new Map<string, string>();
/** The writers of the views' addresses, each holding back at most a value. */
const writers = new Set<ReturnType<typeof throttledWriter>>();
const holding = () => [...writers].some((w) => w.holding());

function writeAddress(query: string): void {
  const url = `?${query}`;
  if (url !== window.location.search) {
    if (settled && !opening) {
      here = `${PAGE}-${++entries}`;
      window.history.pushState({ entry: here }, '', url);
    } else window.history.replaceState(window.history.state, '', url);
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
  // The click that ends a slider's drag leaves its write where the drag's end put it (whatever its target:
  // a click of the user's own comes after a press, which has put that write in already).
  if (settleDue && e.type === 'click') return;
  flushAddress();
}

/** A key pressed there is typing: its value is one change until it settles (Enter, blur). */
const typing = (t: EventTarget | null) =>
  t instanceof HTMLElement && (t.isContentEditable || t instanceof HTMLTextAreaElement || (t instanceof HTMLInputElement && t.type !== 'range' && t.type !== 'checkbox' && t.type !== 'radio'));

/**
 * What begins an action: what came before it is settled (a write it held back is put in first), so the
 * action's writes start an entry of their own. Typing and a drag's steps go on with theirs.
 */
function begin(e: Event): void {
  if (e.type === 'pointerdown' || (e.type === 'keydown' && !typing(e.target))) flushAddress();
  else if (settleDue) flushAddress();
}

const SETTLES = ['change', 'click', 'keydown'];
const BEGINNINGS = ['pointerdown', 'keydown', 'input'];

/**
 * Starts listening for settled changes; Back or Forward calls `onMove`, for the view to read its state
 * again. Leaving the page puts down what is held back.
 */
export function listenToHistory(onMove: () => void): () => void {
  here = entryOf(window.history.state);
  const moved = (e: PopStateEvent) => {
    for (const w of writers) {
      const held = w.drop();
      if (held !== null && here !== null) leftBehind.set(here, held);
    }
    opening = settled = true;
    settleDue = false;
    here = entryOf(e.state);
    const kept = here === null ? undefined : leftBehind.get(here);
    if (kept !== undefined) {
      leftBehind.delete(here!);
      window.history.replaceState(e.state, '', `?${kept}`);
    }
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
