import { type RefObject, useEffect, useState } from 'react';

/** How far outside the window a chart still counts as on screen (about a row of charts), px. */
const MARGIN_PX = 200;

/** Whether an element's box reaches into the window (with the margin), measured now. */
export function nearWindow(el: Element): boolean {
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
