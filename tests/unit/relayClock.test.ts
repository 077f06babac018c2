import { describe, expect, it } from 'vitest';
import { leadAfterStall, leadFromPings, MAX_HOLD_MS, RelayClock, relayOffset, settled } from '../../live/relayClock.ts';
import { manualWall } from '../helpers/manualWall.ts';

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

describe('RelayClock waiting for the relay’s news', () => {
  it('holds an action until the news has caught up to it, then hands it its own time', () => {
    const { wall, advance } = manualWall();
    let horizon = 0;
    let pings = 0;
    const clock = new RelayClock(wall, 0, 4, { heardUntil: () => horizon, behind: () => pings++ });
    const ran: [number, number][] = [];
    clock.at(20, (now) => ran.push([wall.now, now]));
    advance(30); // due at 16 here; the news is still at 0
    expect(ran).toEqual([]);
    expect(pings).toBeGreaterThan(0);
    horizon = 13;
    clock.release(); // news to 13 and the 3 ms allowed for the hop back cover 20 − 4 of lead
    expect(ran).toEqual([[30, 20]]);
  });

  it('runs a held action anyway after MAX_HOLD_MS, handed the time it runs', () => {
    const { wall, advance } = manualWall();
    const clock = new RelayClock(wall, 0, 4, { heardUntil: () => Number.NEGATIVE_INFINITY, behind: () => {} });
    const ran: number[] = [];
    clock.at(10, (now) => ran.push(now));
    clock.at(11, (now) => ran.push(now));
    advance(6 + MAX_HOLD_MS - 1);
    expect(ran).toEqual([]);
    advance(6 + MAX_HOLD_MS + 1);
    expect(ran.length).toBe(2);
    expect(ran[0]).toBeGreaterThanOrEqual(6 + MAX_HOLD_MS);
  });
});

describe('sizing the head start', () => {
  const ping = (rtt: number) => ({ sentAt: 0, relayTime: 0, answeredAt: rtt });

  it('is twice the median ping, within the floor and the cap', () => {
    expect(leadFromPings([ping(1), ping(3), ping(2.5)], 4)).toBe(5); // median 2.5 → 5
    expect(leadFromPings([ping(0.2), ping(0.3), ping(40)], 4)).toBe(4); // one slow ping does not count
    expect(leadFromPings([ping(30), ping(30)], 4)).toBe(10);
  });

  it('grows after a stall by what covered it and a quarter, up to the cap', () => {
    expect(leadAfterStall(4, 1.6)).toBe(7); // (4 + 1.6) × 1.25 = 7
    expect(leadAfterStall(6, 0.1)).toBe(8); // ceil(7.625)
    expect(leadAfterStall(8, 0.1)).toBe(10); // ceil(10.125), capped
    expect(leadAfterStall(4, 50)).toBe(10);
  });

  it('counts pings as settled when the last few all came back within 3 ms', () => {
    expect(settled([ping(9), ping(1), ping(2)], 2)).toBe(true);
    expect(settled([ping(1), ping(3.5)], 2)).toBe(false);
    expect(settled([ping(1)], 2)).toBe(false);
  });
});
