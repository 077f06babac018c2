import { useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import type { Playhead } from '../app/playhead.ts';
import { seconds } from '../charts/format.ts';

export const SPEEDS = [0.25, 0.5, 1, 2, 5, 10, 20, 50, 100];

/** How often the scrubber and the clock follow a playing playhead, ms (the charts' cover slides smoothly by itself). */
const CLOCK_MS = 100;

/**
 * Play, pause, speed and scrub for the shared time axis. The scrubber and the clock follow the playhead
 * by themselves; the rest renders only when it starts, stops, jumps or changes speed.
 */
export function Playback({ playhead, endMs, zoomed, onResetZoom }: { playhead: Playhead; endMs: number; zoomed: boolean; onResetZoom(): void }) {
  const state = useSyncExternalStore(playhead.subscribe, playhead.state);
  const scrub = useRef<HTMLInputElement>(null);
  const clock = useRef<HTMLSpanElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each change of the playhead's motion (a new state) starts or stops the ticking.
  useLayoutEffect(() => {
    const show = () => {
      const t = Math.min(playhead.now(), endMs);
      scrub.current!.value = String(t);
      clock.current!.textContent = `${seconds(t)} / ${seconds(endMs)}`;
    };
    show();
    if (playhead.rate() === 0) return;
    const ticking = setInterval(show, CLOCK_MS);
    return () => clearInterval(ticking);
  }, [playhead, endMs, state]);
  const set = (playing: boolean, t: number) => playhead.set({ ...state, playing, t });
  return (
    <div className="playback" role="group" aria-label="Playback">
      <button type="button" onClick={() => set(!state.playing, playhead.now() >= endMs ? 0 : playhead.now())} aria-label={state.playing ? 'Pause' : 'Play'}>
        {state.playing ? '❚❚ Pause' : '▶ Play'}
      </button>
      <label>
        speed
        <select value={state.speed} onChange={(e) => playhead.set({ ...state, speed: Number(e.target.value), t: playhead.now() })} aria-label="Playback speed">
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              ×{s}
            </option>
          ))}
        </select>
      </label>
      <input ref={scrub} type="range" aria-label="Scrub through time" min={0} max={endMs} step={Math.max(1, endMs / 2000)} defaultValue={0} onChange={(e) => set(false, Number(e.target.value))} />
      <span ref={clock} className="time" data-testid="playhead" />
      <button type="button" onClick={() => set(false, endMs)}>
        Show all
      </button>
      {zoomed && (
        <button type="button" onClick={onResetZoom}>
          Reset zoom
        </button>
      )}
    </div>
  );
}
