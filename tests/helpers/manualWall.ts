import { WallClock } from '../../live/wallClock.ts';

/** A wall clock on a hand-moved time: timers and polls run only when the test moves the time. */
export function manualWall() {
  let t = 0;
  let timers: { at: number; f: () => void }[] = [];
  const wall = new WallClock({
    now: () => t,
    setTimer: (f, ms) => timers.push({ at: t + ms, f }),
    clearTimer: () => {},
    yieldTo: (f) => timers.push({ at: t, f }),
  });
  const runDue = () => {
    const due = timers.filter((x) => x.at <= t);
    timers = timers.filter((x) => x.at > t);
    for (const d of due) d.f();
  };
  /** Moves the time in steps of 0.25 ms, as a running loop would. */
  const advance = (to: number) => {
    while (t < to) {
      t = Math.min(to, t + 0.25);
      runDue();
    }
  };
  /** Moves the time at once, as a loop blocked until then would. */
  const jump = (to: number) => {
    t = to;
    runDue();
  };
  /** Moves the time without running anything, as a loop busy elsewhere that has not got round to its timers. */
  const stall = (to: number) => {
    t = to;
  };
  return { wall, advance, jump, stall };
}
