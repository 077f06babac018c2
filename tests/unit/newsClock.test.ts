import { describe, expect, it } from 'vitest';
import { NEWS_ALLOWANCE_MS, NewsClock } from '../../live/newsClock.ts';
import { MAX_HOLD_MS } from '../../live/relayClock.ts';
import { LATE_SLACK_MS } from '../../live/wallClock.ts';
import { manualWall } from '../helpers/manualWall.ts';

/** News from a relay that the test moves on by hand, counting the pings asked for. */
function news(heard = 0) {
  const n = { heard, pings: 0 };
  return { n, news: { heardUntil: () => n.heard, behind: () => void n.pings++ } };
}

describe('NewsClock', () => {
  it('runs an action on time when the news is within the allowance, handing it the wall clock', () => {
    const { wall, advance } = manualWall();
    const { n, news: relay } = news(0);
    const clock = new NewsClock(wall, relay);
    const ran: number[] = [];
    clock.at(NEWS_ALLOWANCE_MS, (now) => ran.push(now));
    advance(NEWS_ALLOWANCE_MS);
    expect(ran).toEqual([NEWS_ALLOWANCE_MS]);
    expect(n.pings).toBe(0);
  });

  it('holds an action while the news trails it by more than the allowance, asks for news, and runs it when news comes, handed the time less the slack', () => {
    const { wall, advance } = manualWall();
    const { n, news: relay } = news(4);
    const clock = new NewsClock(wall, relay);
    const ran: number[] = [];
    clock.at(15, (now) => ran.push(now));
    clock.at(16, (now) => ran.push(now));
    advance(20);
    expect(ran).toEqual([]); // heard until 4: 4 + 10 < 15
    expect(n.pings).toBe(2);
    n.heard = 5;
    clock.release();
    // 5 + 10 reaches 15, not 16; held 5 ms, the action may make up LATE_SLACK_MS of it, no more
    expect(ran).toEqual([20 - LATE_SLACK_MS]);
    n.heard = 6;
    clock.release();
    expect(ran).toEqual([20 - LATE_SLACK_MS, 20 - LATE_SLACK_MS]);
  });

  it('runs held actions after MAX_HOLD_MS whatever the news', () => {
    const { wall, advance } = manualWall();
    const { news: relay } = news(0);
    const clock = new NewsClock(wall, relay);
    const ran: number[] = [];
    clock.at(50, (now) => ran.push(now));
    advance(50 + MAX_HOLD_MS - 1);
    expect(ran).toEqual([]);
    advance(50 + MAX_HOLD_MS);
    expect(ran).toEqual([50 + MAX_HOLD_MS]);
  });

  it('asks for news the allowance before a long wait ends, not before a short one', () => {
    const { wall, advance } = manualWall();
    const { n, news: relay } = news(0);
    const clock = new NewsClock(wall, relay);
    clock.at(2 * NEWS_ALLOWANCE_MS, () => {});
    advance(2 * NEWS_ALLOWANCE_MS - 1);
    expect(n.pings).toBe(0);
    clock.at(100, () => {});
    advance(100 - NEWS_ALLOWANCE_MS - 1);
    expect(n.pings).toBe(1); // the first action, held
    n.heard = 100 - NEWS_ALLOWANCE_MS - 1;
    clock.release();
    advance(100 - NEWS_ALLOWANCE_MS);
    expect(n.pings).toBe(2);
  });

  it('drops what is pending when stopped', () => {
    const { wall, advance } = manualWall();
    const { news: relay } = news(-100);
    const clock = new NewsClock(wall, relay);
    const ran: number[] = [];
    clock.at(5, (now) => ran.push(now));
    advance(6);
    clock.stop();
    advance(300);
    expect(ran).toEqual([]);
  });
});
