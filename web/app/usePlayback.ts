import { useEffect, useRef } from 'react';
import { Playhead } from './playhead.ts';

/** The playhead: it plays from the start at ×10 once there is a run, and stops at the end of the runs. */
export function usePlayback(endMs: number, ready: boolean): Playhead {
  const ref = useRef<Playhead | null>(null);
  ref.current ??= new Playhead({ playing: true, speed: 10, t: 0 });
  const playhead = ref.current;
  useEffect(() => playhead.setEnd(endMs, ready), [playhead, endMs, ready]);
  return playhead;
}
