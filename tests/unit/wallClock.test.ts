import { describe, expect, it } from 'vitest';
import { Pacer } from '../../shared/endpoints/pacer.ts';
import { Timer } from '../../shared/sim/scheduler.ts';
import { LATE_SLACK_MS } from '../../live/wallClock.ts';
import { manualWall } from '../helpers/manualWall.ts';

describe('WallClock', () => {
  it('keeps a pacer on its schedule when each poll runs its send a fraction of a millisecond late', () => {
    // The hand-moved wall polls every 0.25 ms: a send due at 4.1237 runs at 4.25, as a page's clock would.
    const { wall, advance } = manualWall();
    const rate = 242.5;
    const sent: { model: number; wall: number }[] = [];
    const pacer: Pacer = new Pacer(new Timer(wall, (now) => send(now)));
    const send = (now: number) => {
      if (pacer.hold(now, rate)) return;
      sent.push({ model: now, wall: wall.elapsed });
      if (sent.length < 100) pacer.hold(now, rate);
    };
    send(0);
    advance(500);
    expect(sent).toHaveLength(100);
    const gap = 1000 / rate;
    // Each send is handed its slot, so the 100th goes at 99 gaps, not 99 late gaps (4.25 ms each: 420.75).
    sent.forEach((s, i) => expect(s.model).toBeCloseTo(i * gap, 9));
    sent.forEach((s, i) => expect(s.wall - i * gap).toBeLessThan(0.25 + 1e-9));
    expect(sent[99].wall).toBe(408.25);
  });

  it('hands an action that runs over the slack late the time less the slack, so a stall is not made up in a burst', () => {
    const { wall, jump } = manualWall();
    const got: number[] = [];
    wall.at(10, (now) => got.push(now));
    wall.at(11, (now) => got.push(now));
    jump(20);
    expect(got).toEqual([20 - LATE_SLACK_MS, 20 - LATE_SLACK_MS]);
  });

  it('never hands an action a time before one the model has already read', () => {
    const { wall, advance, jump } = manualWall();
    const got: number[] = [];
    wall.at(10, (now) => got.push(now));
    advance(9.9);
    jump(10.3);
    // 10.3 is within the slack of 10, but a reply read at 10.3 first moves the floor there.
    expect(got).toEqual([10]);
    wall.at(10.5, (now) => got.push(now));
    jump(10.7);
    expect(wall.now).toBe(10.7);
    wall.at(10.6, (now) => got.push(now));
    advance(10.95);
    expect(got).toEqual([10, 10.5, 10.7]);
  });
});
