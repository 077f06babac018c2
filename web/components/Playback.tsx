import { seconds } from '../charts/format.ts';

export const SPEEDS = [0.25, 0.5, 1, 2, 5, 10, 20, 50, 100];

export interface PlaybackState {
  playing: boolean;
  speed: number;
  /** The playhead, ms. */
  t: number;
}

/** Play, pause, speed and scrub for the shared time axis. */
export function Playback({ state, endMs, onChange, zoomed, onResetZoom }: { state: PlaybackState; endMs: number; onChange(s: PlaybackState): void; zoomed: boolean; onResetZoom(): void }) {
  return (
    <div className="playback" role="group" aria-label="Playback">
      <button type="button" onClick={() => onChange({ ...state, playing: !state.playing, t: state.t >= endMs ? 0 : state.t })} aria-label={state.playing ? 'Pause' : 'Play'}>
        {state.playing ? '❚❚ Pause' : '▶ Play'}
      </button>
      <label>
        speed
        <select value={state.speed} onChange={(e) => onChange({ ...state, speed: Number(e.target.value) })} aria-label="Playback speed">
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              ×{s}
            </option>
          ))}
        </select>
      </label>
      <input
        type="range"
        aria-label="Scrub through time"
        min={0}
        max={endMs}
        step={Math.max(1, endMs / 2000)}
        value={Math.min(state.t, endMs)}
        onChange={(e) => onChange({ ...state, playing: false, t: Number(e.target.value) })}
      />
      <span className="time" data-testid="playhead">
        {seconds(Math.min(state.t, endMs))} / {seconds(endMs)}
      </span>
      <button type="button" onClick={() => onChange({ ...state, playing: false, t: endMs })}>
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
