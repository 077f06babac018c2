import { useEffect, useRef } from 'react';
import { Playhead } from './playhead.ts';

/**
 * The playhead: it plays from the start at ×10 once there is a run, and stops at the end of the runs. A
 * reader whose system asks for reduced motion sees each run whole at once, with Play there to watch it move.
 */
export function usePlayback(endMs: number, ready: boolean): Playhead {
  const ref = useRef<Playhead | null>(null);
  ref.current ??= new Playhead({ autoplay: !window.matchMedia('(prefers-reduced-motion: reduce)').matches, speed: 10 });
  const playhead = ref.current;
  useEffect(() => playhead.setEnd(endMs, ready), [playhead, endMs, ready]);
  return playhead;
}
