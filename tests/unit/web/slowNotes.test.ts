import { describe, expect, it } from 'vitest';
import { SLOW_AFTER_MS, slowNote } from '../../../web/app/slowNotes.ts';
import { Watchdog } from '../../../web/worker/watchdog.ts';

describe('a side whose user code runs slowly', () => {
  it('the watchdog times the code from its run’s first beat to its last, and starts again with a newer run or a probe', () => {
    let now = 1000;
    const dog = new Watchdog(
      () => {},
      () => now,
    );
    expect(dog.pace()).toBeNull();
    dog.beat(7, 'onAck', 40);
    now = 1600;
    dog.beat(7, 'windowSize', 1064);
    // the time since the last beat is not counted: the callbacks entered in it are not known yet
    now = 2500;
    expect(dog.pace()).toEqual({ ms: 600, callbacks: 1024 });
    // a newer run's first beat: timed from there
    dog.beat(8, 'onTimeout', 3);
    now = 2600;
    expect(dog.pace()).toEqual({ ms: 0, callbacks: 0 });
    // the same run again, probing in a fresh worker, from its first beat there
    dog.probe(8);
    expect(dog.pace()).toBeNull();
    dog.beat(8, 'onAck', 1);
    now = 2750;
    dog.beat(8, 'onAck', 2);
    expect(dog.pace()).toEqual({ ms: 150, callbacks: 1 });
    // its code is done, or the worker ended: nothing is timed
    dog.beat(8, null, 9);
    expect(dog.pace()).toBeNull();
    dog.beat(9, 'onAck', 1);
    dog.stop();
    expect(dog.pace()).toBeNull();
  });

  it('says how long a callback takes once the code has run SLOW_AFTER_MS', () => {
    expect(SLOW_AFTER_MS).toBe(3000);
    const pace = (ms: number, callbacks: number) => ({ ms, callbacks });
    expect(slowNote(null)).toBeNull();
    expect(slowNote(pace(2999, 20))).toBeNull();
    expect(slowNote(pace(3000, 0))).toBeNull();
    expect(slowNote(pace(7800, 52))).toBe('your controller is slow: 52 callbacks in 7 s, about 150 ms each on average; a run makes one or more for each packet');
    // code that is busy but fast says nothing: a long run of many callbacks is not slow code
    expect(slowNote(pace(4000, 5000))).toBeNull();
    expect(slowNote(pace(4000, 500))).toBe('your controller is slow: 500 callbacks in 4 s, about 8.0 ms each on average; a run makes one or more for each packet');
  });
});
