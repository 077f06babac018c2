import { useEffect, useState } from 'react';
import type { PlaybackState } from '../components/Playback.tsx';

/** The playhead: it advances with the clock at the chosen speed while playing, and stops at the end. */
export function usePlayback(endMs: number, ready: boolean) {
  const [play, setPlay] = useState<PlaybackState>({ playing: true, speed: 10, t: 0 });
  useEffect(() => {
    if (!play.playing || !ready) return;
    let last = performance.now();
    let raf = requestAnimationFrame(function tick(now) {
      // A frame's time is when the frame began, which can be before this effect read the clock: a first
      // step back in time would start the playhead below 0, and nothing would show until it climbed back.
      const dt = Math.max(0, now - last);
      last = Math.max(last, now);
      setPlay((p) => (p.t + dt * p.speed >= endMs ? { ...p, t: endMs, playing: false } : { ...p, t: p.t + dt * p.speed }));
      raf = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(raf);
  }, [play.playing, endMs, ready]);
  return [play, setPlay] as const;
}
