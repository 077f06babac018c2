import { WallClock } from '../live/wallClock.ts';

/** A wall clock for Node: polls through setImmediate. */
export const nodeClock = (): WallClock =>
  new WallClock({ now: () => performance.now(), setTimer: (f, ms) => setTimeout(f, ms), clearTimer: (h) => clearTimeout(h as NodeJS.Timeout), yieldTo: setImmediate });
