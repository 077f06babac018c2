import { type RefObject, useEffect, useState } from 'react';

/** How far outside the window a chart still counts as on screen (about a row of charts), px. */
const MARGIN_PX = 200;

/** Whether an element's box reaches into the window (with the margin), measured now. */
function nearWindow(el: Element): boolean {
  const r = el.getBoundingClientRect();
  return r.bottom > -MARGIN_PX && r.top < window.innerHeight + MARGIN_PX && r.right > -MARGIN_PX && r.left < window.innerWidth + MARGIN_PX;
}

/**
 * Whether the element is on screen or near it, as an IntersectionObserver last said; null before its first
 * report (and when not `watching`), when the caller measures for itself.
 */
export function useOnScreen(ref: RefObject<Element | null>, watching: boolean): boolean | null {
  const [on, setOn] = useState<boolean | null>(null);
  useEffect(() => {
    if (!watching || !ref.current) return;
    const io = new IntersectionObserver(([e]) => setOn(e.isIntersecting), { rootMargin: `${MARGIN_PX}px` });
    io.observe(ref.current);
    return () => io.disconnect();
  }, [ref, watching]);
  return watching ? on : null;
}

interface Placement {
  el: Element;
  near: () => void;
  far: () => () => void;
  cancel: (() => void) | null;
  dropped: boolean;
}

/** Elements whose effects asked where they are, in the commit under way. */
const unplaced: Placement[] = [];

function place(): void {
  const batch = unplaced.splice(0);
  // every box is read before any chart paints: a paint resizes its canvas, and a read after it would lay the page out again
  const isNear = batch.map((p) => !p.dropped && nearWindow(p.el));
  batch.forEach((p, i) => {
    if (p.dropped) return;
    if (isNear[i]) p.near();
    else p.cancel = p.far();
  });
}

/**
 * Calls `near` when the element is on screen or near it, else `far` (which returns how to call itself
 * off), once the effects of the commit under way have run: the page is laid out once for all the charts
 * that ask, instead of once per chart. Returns how to call either off.
 */
export function whenPlaced(el: Element, near: () => void, far: () => () => void): () => void {
  const p: Placement = { el, near, far, cancel: null, dropped: false };
  if (unplaced.push(p) === 1) queueMicrotask(place);
  return () => {
    p.dropped = true;
    p.cancel?.();
  };
}
