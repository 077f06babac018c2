import { WallClock } from '../../live/wallClock.ts';

/**
 * A wall clock for the live controller's worker. It only sleeps, never polls: the relay sends each
 * datagram at the time it is stamped with (web/live/bridgeFetch.ts), so a timer that fires a millisecond
 * or two late costs nothing, while a worker polling its next deadline took most of a core from a browser
 * that needs it to read the replies on time (measured: penalties 16–30 polling, 0–8 sleeping).
 */
export function browserClock(): WallClock {
  return new WallClock({
    now: () => performance.now(),
    setTimer: (f, ms) => setTimeout(f, ms),
    clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  });
}
