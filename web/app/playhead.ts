/** Whether the runs play, how fast, and where the playhead is (ms). */
export interface PlaybackState {
  playing: boolean;
  speed: number;
  /** The playhead, ms. */
  t: number;
}

/**
 * The time the charts draw up to, and how it moves: at `rate()` ms of the run per ms of the clock from
 * `now()` on, until the next change, when its subscribers hear of it.
 */
export interface TimeSource {
  now(): number;
  rate(): number;
  subscribe(listener: () => void): () => void;
}

/**
 * The playhead, outside React. While it plays its place is a function of the clock, so nothing has to
 * move it frame by frame: whoever draws it hears only of a start, a stop, a jump or a new speed, and
 * lets the compositor slide what moves (see TimeChart). `state` keeps its identity between such changes,
 * for the components that render the controls.
 */
export class Playhead implements TimeSource {
  private controls: PlaybackState;
  /**
   * Whether new runs play from their start (the page's default) or open whole, paused at their end: for a
   * reader whose system asks for less motion, nothing slides unless they press Play.
   */
  private readonly autoplay: boolean;
  /** The clock's time when `controls.t` was the playhead's place, ms. */
  private since = 0;
  private endMs = Number.POSITIVE_INFINITY;
  /** Whether there is anything to play yet. */
  private ready = false;
  private stop: ReturnType<typeof setTimeout> | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(
    o: { autoplay: boolean; speed: number },
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.autoplay = o.autoplay;
    this.controls = { speed: o.speed, ...this.opening(this.endMs) };
  }

  private moving = () => this.controls.playing && this.ready;

  now = (): number => (this.moving() ? Math.min(this.endMs, this.controls.t + (this.clock() - this.since) * this.controls.speed) : this.controls.t);

  rate = (): number => (this.moving() ? this.controls.speed : 0);

  /** The controls as last changed; `t` is where the playhead was then. */
  state = (): PlaybackState => this.controls;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  set = (next: PlaybackState): void => this.change(next);

  /** Shows the runs from the start again, as they opened: played from 0, or whole. */
  replay = (): void => this.change({ ...this.controls, ...this.opening(this.endMs) });

  /** Where runs that end at `endMs` open: played from 0, or whole. */
  private opening(endMs: number): Omit<PlaybackState, 'speed'> {
    return this.autoplay ? { t: 0, playing: true } : { t: endMs, playing: false };
  }

  /**
   * The end of the runs, ms, and whether there is anything to play yet. With nothing left to play (a new
   * scenario's runs are under way), the next runs open as the page's first ones do (see `replay`). A
   * playhead that opens runs whole and stands at the end stays at the end as the runs grow.
   */
  setEnd(endMs: number, ready: boolean): void {
    if (endMs === this.endMs && ready === this.ready) return;
    const atEnd = !this.autoplay && !this.moving() && this.controls.t >= this.endMs;
    const next = ready ? { ...this.controls, t: atEnd ? endMs : this.now() } : { ...this.controls, ...this.opening(endMs) };
    this.endMs = endMs;
    this.ready = ready;
    this.change(next);
  }

  private change(next: PlaybackState): void {
    if (this.stop !== null) clearTimeout(this.stop);
    this.stop = null;
    this.controls = next.playing && next.t >= this.endMs ? { ...next, t: this.endMs, playing: false } : { ...next };
    this.since = this.clock();
    if (this.moving()) this.stop = setTimeout(() => this.change({ ...this.controls, t: this.endMs, playing: false }), (this.endMs - this.controls.t) / this.controls.speed);
    this.listeners.forEach((l) => l());
  }
}
