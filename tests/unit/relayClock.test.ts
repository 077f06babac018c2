import { describe, expect, it } from 'vitest';
import { RelayClock, relayOffset } from '../../live/relayClock.ts';
import { WallClock } from '../../live/wallClock.ts';

/** A wall clock on a hand-moved time: timers and polls run only when the test moves the time. */
function manualWall() {
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
  return { wall, advance, jump };
}

describe('relayOffset', () => {
  it('takes the midpoint of the fastest ping', () => {
    const samples = [
      { sentAt: 0, relayTime: 1010, answeredAt: 6 }, // 6 ms round trip: offset 1007
      { sentAt: 10, relayTime: 1011, answeredAt: 12 }, // 2 ms: offset 1011 - 11 = 1000
      { sentAt: 20, relayTime: 1030, answeredAt: 24 }, // 4 ms: offset 1008
    ];
    expect(relayOffset(samples)).toBe(1000);
  });

  it('refuses to guess without samples', () => {
    expect(() => relayOffset([])).toThrow('no clock samples from the relay');
  });
});

describe('RelayClock', () => {
  it('reads the relay’s time, runs actions the lead early and hands them their own time', () => {
    const { wall, advance } = manualWall();
    const clock = new RelayClock(wall, 500, 8);
    expect(clock.now).toBe(500);
    const ran: [number, number][] = [];
    clock.at(600, (now) => ran.push([wall.now, now]));
    advance(91);
    expect(ran).toEqual([]);
    advance(92); // relay time 592 = 600 - 8 ms of lead
    expect(ran).toEqual([[92, 600]]);
  });

  it('hands a late action the time it actually runs', () => {
    const { wall, jump } = manualWall();
    const clock = new RelayClock(wall, 0, 8);
    let got = -1;
    clock.at(10, (now) => (got = now));
    jump(30);
    expect(got).toBe(30);
  });
});
