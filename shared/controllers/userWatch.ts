import { wallNow } from './wallClock.ts';

/**
 * A hang the loop guard cannot see (a regular expression that backtracks for ever, a huge built-in call)
 * never returns to it, so only the thread that waits on the worker can end it. It learns that user code
 * still moves from beats: every BEAT_MS at most, a count of the callbacks entered so far and the one
 * entered now. From its last beat it cannot tell which callback hung, so it runs the same (deterministic)
 * run again in a fresh worker, probing from that count: then every callback entered is reported.
 */
export const BEAT_MS = 100;

/**
 * The most callbacks between two looks at the clock: reading it costs more than a quick callback, and
 * callbacks that turn slow after quick ones (a 20 ms call after a thousand of a microsecond) are looked at
 * again within this many.
 */
const MAX_STRIDE = 64;

/**
 * Callbacks entered so far (never reset: the loop guard tells callbacks apart by it), the count at
 * which this run started, the next count at which `watched` runs, the callbacks from one look at the
 * clock to the next, and the callback entered last.
 */
export const watch = {
  entered: 0,
  from: 0,
  next: Infinity,
  probeFrom: Infinity,
  lastBeat: 0,
  lastLook: 0,
  stride: 1,
  callback: '',
  beat: null as ((callback: string, entered: number) => void) | null,
};

/**
 * Starts reporting beats of the run about to start (the first callback entered beats at once); with
 * `probeFrom`, every callback from that count on. `beat` null stops the reports.
 */
export function watchCallbacks(beat: ((callback: string, entered: number) => void) | null, probeFrom = Infinity): void {
  const from = watch.entered;
  Object.assign(watch, { from, next: beat ? from + 1 : Infinity, probeFrom: from + probeFrom, lastBeat: -Infinity, lastLook: -Infinity, stride: 1, beat });
}

/**
 * The callbacks until the next look: twice as many while they are quick, an eighth as many once a stretch
 * took half a beat, down to every one. So a slow controller still beats every BEAT_MS or so, well within
 * the wait for a hang (a fixed 1024 callbacks of 2 ms each were taken for one, and run again probing, each
 * callback a message to the page).
 */
function strideAfter(stride: number, sinceMs: number): number {
  if (sinceMs > BEAT_MS / 2) return Math.max(1, stride >> 3);
  if (sinceMs < BEAT_MS / 16) return Math.min(MAX_STRIDE, stride * 2);
  return stride;
}

/** Beats if BEAT_MS have passed since the last beat: beats are paced in wall time for the thread that watches for hangs. */
function beatIfDue(now: number, callback: string): void {
  if (now - watch.lastBeat < BEAT_MS) return;
  watch.lastBeat = now;
  watch.beat!(callback, watch.entered - watch.from);
}

export function watched(name: string): void {
  const { entered, beat } = watch;
  if (!beat) {
    watch.next = Infinity;
    return;
  }
  if (entered >= watch.probeFrom) {
    watch.next = entered + 1;
    beat(name, entered - watch.from);
    return;
  }
  const now = wallNow();
  watch.stride = strideAfter(watch.stride, now - watch.lastLook);
  watch.lastLook = now;
  watch.next = Math.min(entered + watch.stride, watch.probeFrom);
  beatIfDue(now, name);
}

/**
 * The loop guard's look at the clock in a long loop beats too: a callback that takes its time in loops
 * beats while it runs (probing, every callback beats as it is entered already).
 */
export function lookedAt(now: number): void {
  if (watch.beat && watch.entered < watch.probeFrom) beatIfDue(now, watch.callback);
}
