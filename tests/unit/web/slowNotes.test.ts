import { describe, expect, it } from 'vitest';
import { SLOW_AFTER_MS, slowNote } from '../../../web/app/slowNotes.ts';
import { Watchdog } from '../../../web/worker/watchdog.ts';

describe('a side whose user code runs slowly', () => {
  it('the watchdog times the code from its run’s first beat, and starts again with a newer run', () => {
    let now = 1000;
    const dog = new Watchdog(
      () => {},
      () => now,
    );
    expect(dog.pace()).toBeNull();
    dog.beat(7, 'onAck', 40);
    now = 1600;
    dog.beat(7, 'windowSize', 43);
    dog.beat(7, 'onAck', 44);
    now = 2500;
    expect(dog.pace()).toEqual({ ms: 1500, callbacks: 4 });
    // a newer run's first beat: timed from there
    dog.beat(8, 'onTimeout', 3);
    now = 2600;
    expect(dog.pace()).toEqual({ ms: 100, callbacks: 0 });
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
