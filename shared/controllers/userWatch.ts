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
 * Callbacks entered so far (never reset: the loop guard tells callbacks apart by it), the count at
 * which this run started, the next count at which `watched` runs.
 */
export const watch = { entered: 0, from: 0, next: Infinity, probeFrom: Infinity, lastBeat: 0, beat: null as ((callback: string, entered: number) => void) | null };

/**
 * Starts reporting beats of the run about to start (the first callback entered beats at once); with
 * `probeFrom`, every callback from that count on. `beat` null stops the reports.
 */
export function watchCallbacks(beat: ((callback: string, entered: number) => void) | null, probeFrom = Infinity): void {
  const from = watch.entered;
  Object.assign(watch, { from, next: beat ? from + 1 : Infinity, probeFrom: from + probeFrom, lastBeat: -Infinity, beat });
}

export function watched(name: string): void {
  const { entered, from, beat } = watch;
  if (!beat) {
    watch.next = Infinity;
    return;
  }
  if (entered >= watch.probeFrom) {
    watch.next = entered + 1;
    beat(name, entered - from);
    return;
  }
  // the clock is read once every 1024 callbacks
  watch.next = Math.min(entered + 1024, watch.probeFrom);
  // beats are paced in wall time for the thread that watches for hangs
  const now = wallNow();
  if (now - watch.lastBeat < BEAT_MS) return;
  watch.lastBeat = now;
  beat(name, entered - from);
}
