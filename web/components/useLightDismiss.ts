import { useEffect, useRef } from 'react';

/**
 * A menu that folds away as a popover does: on Escape, or a press anywhere outside it. It would otherwise
 * stay open over the cards it was opened above.
 */
export function useLightDismiss() {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = () => {
      if (ref.current) ref.current.open = false;
    };
    const onPress = (e: PointerEvent) => ref.current?.open && !ref.current.contains(e.target as Node) && close();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && ref.current?.open && close();
    document.addEventListener('pointerdown', onPress);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPress);
      document.removeEventListener('keydown', onKey);
    };
  }, []);
  return ref;
}
