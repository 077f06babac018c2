import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Playhead } from '../../../web/app/playhead.ts';
import { throttledWriter } from '../../../web/app/throttle.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the playhead', () => {
  /** A playhead on a clock the test moves by hand, and how many changes its listener heard. */
  function playhead(autoplay = true, speed = 10) {
    let wall = 1000;
    const p = new Playhead({ autoplay, speed }, () => wall);
    let heard = 0;
    p.subscribe(() => heard++);
    const pass = (ms: number) => {
      wall += ms;
      vi.advanceTimersByTime(ms);
    };
    return { p, pass, heard: () => heard };
  }

  it('stands at 0 until there is a run, then moves at its speed from where it stood', () => {
    const { p, pass, heard } = playhead();
    pass(500);
    expect([p.now(), p.rate()]).toEqual([0, 0]);
    p.setEnd(14_000, true);
    expect(heard()).toBe(1);
    pass(250);
    expect([p.now(), p.rate()]).toEqual([2500, 10]);
    // its place follows the clock: moving it costs no change, and nobody hears of one
    pass(100);
    expect(p.now()).toBe(3500);
    expect(heard()).toBe(1);
  });

  it('stops at the end of the runs by itself, once, and says so', () => {
    const { p, pass, heard } = playhead();
    p.setEnd(14_000, true);
    pass(1399);
    expect(p.state().playing).toBe(true);
    pass(1);
    expect(p.state()).toEqual({ playing: false, speed: 10, t: 14_000 });
    expect([p.now(), p.rate()]).toEqual([14_000, 0]);
    expect(heard()).toBe(2);
    pass(5000);
    expect(heard()).toBe(2);
  });

  it('a pause keeps its place; a new speed goes on from there; a longer run moves the end', () => {
    const { p, pass } = playhead();
    p.setEnd(14_000, true);
    pass(100);
    p.set({ ...p.state(), playing: false, t: p.now() });
    pass(1000);
    expect(p.now()).toBe(1000);
    p.set({ playing: true, speed: 2, t: p.now() });
    pass(500);
    expect(p.now()).toBe(2000);
    p.setEnd(30_000, true);
    pass(6000);
    expect(p.now()).toBe(14_000);
    expect(p.state().playing).toBe(true);
    pass(8000);
    expect(p.state()).toEqual({ playing: false, speed: 2, t: 30_000 });
  });

  it('once nothing is left to play (another scenario), the next runs play from the start', () => {
    const { p, pass } = playhead();
    p.setEnd(14_000, true);
    pass(2000);
    expect(p.state()).toEqual({ playing: false, speed: 10, t: 14_000 });
    p.setEnd(1, false);
    expect([p.now(), p.rate()]).toEqual([0, 0]);
    pass(300);
    p.setEnd(8230, true);
    expect(p.state().playing).toBe(true);
    pass(100);
    expect(p.now()).toBe(1000);
  });

  it('for less motion, runs open whole: it stands at their end, stays there as they grow, and plays only when asked', () => {
    const { p, pass, heard } = playhead(false);
    expect([p.now(), p.rate()]).toEqual([Number.POSITIVE_INFINITY, 0]);
    p.setEnd(3000, true); // a preview's first seconds
    expect(p.state()).toEqual({ playing: false, speed: 10, t: 3000 });
    p.setEnd(14_000, true); // the whole run
    pass(1000);
    expect([p.now(), p.rate()]).toEqual([14_000, 0]);
    expect(heard()).toBe(2);
    // a place the reader picked stays picked when a longer run comes
    p.set({ ...p.state(), t: 5000 });
    p.setEnd(20_000, true);
    expect(p.now()).toBe(5000);
    // Play moves it at its speed, as on any page
    p.set({ ...p.state(), playing: true });
    pass(100);
    expect(p.now()).toBe(6000);
    // another scenario's runs, and a replayed import, open whole again
    p.setEnd(1, false);
    p.setEnd(8230, true);
    expect(p.state()).toEqual({ playing: false, speed: 10, t: 8230 });
    p.set({ ...p.state(), t: 0 });
    p.replay();
    expect(p.state()).toEqual({ playing: false, speed: 10, t: 8230 });
  });

  it('a replayed import plays from the start', () => {
    const { p, pass } = playhead();
    p.setEnd(14_000, true);
    pass(2000);
    p.replay();
    pass(100);
    expect([p.now(), p.rate()]).toEqual([1000, 10]);
  });

  it('played from the end it stays there, stopped', () => {
    const { p } = playhead(false);
    p.setEnd(14_000, true);
    p.set({ playing: true, speed: 10, t: 20_000 });
    expect(p.state()).toEqual({ playing: false, speed: 10, t: 14_000 });
  });
});

/** A URL writer with a spell of 300 ms, and what it wrote. */
function writer() {
  const written: string[] = [];
  return { written, w: throttledWriter((v) => written.push(v), 300) };
}

describe('the URL writer', () => {
  it('writes the first value of a quiet spell at once and the last of a burst when it ends, each once', () => {
    const { written, w } = writer();
    w.write('a=1');
    expect(written).toEqual(['a=1']);
    for (const v of ['a=2', 'a=3', 'a=4']) {
      vi.advanceTimersByTime(50);
      w.write(v);
    }
    expect(written).toEqual(['a=1']);
    vi.advanceTimersByTime(150);
    expect(written).toEqual(['a=1', 'a=4']);
    // the same value again is not written; a burst's last value still is, a spell later
    w.write('a=4');
    w.write('a=5');
    vi.advanceTimersByTime(299);
    expect(written).toEqual(['a=1', 'a=4']);
    vi.advanceTimersByTime(1);
    expect(written).toEqual(['a=1', 'a=4', 'a=5']);
    vi.advanceTimersByTime(1000);
    w.write('a=6');
    expect(written).toEqual(['a=1', 'a=4', 'a=5', 'a=6']);
  });

  it('postpone gives the waiting value a whole spell from then, and holding says whether one waits', () => {
    const { written, w } = writer();
    w.write('a');
    w.write('b');
    expect(w.holding()).toBe(true);
    vi.advanceTimersByTime(250);
    w.postpone();
    vi.advanceTimersByTime(299);
    expect(written).toEqual(['a']);
    vi.advanceTimersByTime(1);
    expect(written).toEqual(['a', 'b']);
    expect(w.holding()).toBe(false);
    // nothing waits: nothing to postpone, and the next value is written at once
    w.postpone();
    w.write('c');
    expect(written).toEqual(['a', 'b', 'c']);
  });

  it('drop forgets the waiting value: its spell writes nothing', () => {
    const { written, w } = writer();
    w.write('a');
    w.write('b');
    expect(w.drop()).toBe('b');
    expect(w.holding()).toBe(false);
    expect(w.drop()).toBeNull();
    vi.advanceTimersByTime(1000);
    expect(written).toEqual(['a']);
  });

  it('a flush writes the waiting value now, and nothing twice', () => {
    const { written, w } = writer();
    w.write('x');
    w.write('y');
    w.flush();
    expect(written).toEqual(['x', 'y']);
    vi.advanceTimersByTime(1000);
    expect(written).toEqual(['x', 'y']);
  });

  it("a flush ends the spell: the next value, the next action's first, is written at once", () => {
    const { written, w } = writer();
    w.write('A1');
    w.write('A3');
    w.postpone();
    vi.advanceTimersByTime(100);
    w.flush();
    w.write('B1');
    expect(written).toEqual(['A1', 'A3', 'B1']);
    w.write('B2');
    expect(written).toEqual(['A1', 'A3', 'B1']);
    vi.advanceTimersByTime(300);
    expect(written).toEqual(['A1', 'A3', 'B1', 'B2']);
  });
});
