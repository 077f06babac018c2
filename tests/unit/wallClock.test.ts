import { describe, expect, it } from 'vitest';
import { WallClock } from '../../live/wallClock.ts';

/** Timers on a hand-set time that record what the clock asks of them. */
function recordingTimers(polls: boolean) {
  const state = { t: 0, timers: [] as { ms: number; f: () => void }[], yields: [] as (() => void)[] };
  const wall = new WallClock({
    now: () => state.t,
    setTimer: (f, ms) => state.timers.push({ ms, f }),
    clearTimer: () => {},
    ...(polls ? { yieldTo: (f: () => void) => void state.yields.push(f) } : {}),
  });
  return { state, wall };
}

describe('WallClock', () => {
  it('sleeps until half a millisecond before a deadline and polls the rest when it can poll', () => {
    const { state, wall } = recordingTimers(true);
    const ran: number[] = [];
    wall.at(10, (now) => ran.push(now));
    expect(state.timers.map((x) => x.ms)).toEqual([9.5]);
    state.t = 9.6;
    state.timers[0].f();
    expect(state.yields).toHaveLength(1);
    state.t = 10.05;
    state.yields[0]();
    expect(ran).toEqual([10.05]);
  });

  it('without a way to poll, sleeps the whole wait and never polls', () => {
    const { state, wall } = recordingTimers(false);
    const ran: number[] = [];
    wall.at(10, (now) => ran.push(now));
    wall.at(11.5, (now) => ran.push(now));
    expect(state.timers.map((x) => x.ms)).toEqual([10]);
    state.t = 10.8;
    state.timers[0].f();
    expect(ran).toEqual([10.8]);
    // The next deadline is 0.7 ms off: one more timer for exactly that, no polling.
    expect(state.timers.map((x) => x.ms)).toEqual([10, 11.5 - 10.8]);
    expect(state.yields).toEqual([]);
  });

  it('runs at once the actions a late timer has not run, up to a time no later than now, in order', () => {
    const { state, wall } = recordingTimers(false);
    const ran: string[] = [];
    wall.at(10, () => ran.push('a'));
    wall.at(11, () => ran.push('b'));
    wall.at(12, () => ran.push('c'));
    state.t = 11.5;
    wall.runDue(11);
    expect(ran).toEqual(['a', 'b']);
    // Asked for a time still to come, it runs only what is due now.
    wall.runDue(20);
    expect(ran).toEqual(['a', 'b']);
    state.t = 12;
    wall.runDue(20);
    expect(ran).toEqual(['a', 'b', 'c']);
  });
});
