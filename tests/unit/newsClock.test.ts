import { describe, expect, it } from 'vitest';
import { NEWS_ALLOWANCE_MS, NewsClock } from '../../live/newsClock.ts';
import { MAX_HOLD_MS } from '../../live/relayClock.ts';
import { Pacer } from '../../shared/endpoints/pacer.ts';
import { Timer } from '../../shared/sim/scheduler.ts';
import { manualWall } from '../helpers/manualWall.ts';

/** News from a relay that the test moves on by hand, counting the pings asked for. */
function news(heard = 0) {
  const n = { heard, pings: 0 };
  return { n, news: { heardUntil: () => n.heard, behind: () => void n.pings++ } };
}

/** How late an action may run and keep its time, in these tests. */
const LATE_SLACK_MS = 0.5;
const slack = () => LATE_SLACK_MS;

describe('NewsClock', () => {
  it('runs an action on time when the news is within the allowance, handing it the wall clock', () => {
    const { wall, advance } = manualWall();
    const { n, news: relay } = news(0);
    const clock = new NewsClock(wall, relay, slack);
    const ran: number[] = [];
    clock.at(NEWS_ALLOWANCE_MS, (now) => ran.push(now));
    advance(NEWS_ALLOWANCE_MS);
    expect(ran).toEqual([NEWS_ALLOWANCE_MS]);
    expect(n.pings).toBe(0);
  });

  it('holds an action while the news trails it by more than the allowance, asks for news, and runs it when news comes, handed the time less the slack', () => {
    const { wall, advance } = manualWall();
    const { n, news: relay } = news(4);
    const clock = new NewsClock(wall, relay, slack);
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
    const clock = new NewsClock(wall, relay, slack);
    const ran: number[] = [];
    clock.at(50, (now) => ran.push(now));
    advance(50 + MAX_HOLD_MS - 1);
    expect(ran).toEqual([]);
    advance(50 + MAX_HOLD_MS);
    expect(ran).toEqual([50 + MAX_HOLD_MS - LATE_SLACK_MS]);
  });

  it('asks for news the allowance before a long wait ends, not before a short one', () => {
    const { wall, advance } = manualWall();
    const { n, news: relay } = news(0);
    const clock = new NewsClock(wall, relay, slack);
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
    const clock = new NewsClock(wall, relay, slack);
    const ran: number[] = [];
    clock.at(5, (now) => ran.push(now));
    advance(6);
    clock.stop();
    advance(300);
    expect(ran).toEqual([]);
  });

  it('keeps a pacer on its schedule when each poll runs its send a fraction of a millisecond late', () => {
    // The hand-moved wall polls every 0.25 ms: a send due at 4.1237 runs at 4.25, as a page's clock would.
    const { wall, advance } = manualWall();
    const clock = new NewsClock(wall, news(Number.POSITIVE_INFINITY).news, slack);
    const rate = 242.5;
    const sent: { model: number; wall: number }[] = [];
    const pacer: Pacer = new Pacer(new Timer(clock, (now) => send(now)));
    const send = (now: number) => {
      if (pacer.hold(now, rate)) return;
      sent.push({ model: now, wall: wall.now });
      if (sent.length < 100) pacer.hold(now, rate);
    };
    send(0);
    advance(500);
    expect(sent).toHaveLength(100);
    const gap = 1000 / rate;
    // Each send is handed its slot, so the 100th goes at 99 gaps, not at 99 late ones (4.25 ms each: 420.75).
    sent.forEach((s, i) => expect(s.model).toBeCloseTo(i * gap, 9));
    sent.forEach((s, i) => expect(s.wall - i * gap).toBeLessThan(0.25 + 1e-9));
    expect(sent[99].wall).toBe(408.25);
  });

  it('hands an action that runs over the slack late the time less the slack, so a stall is not made up in a burst', () => {
    const { wall, jump } = manualWall();
    const clock = new NewsClock(wall, news(Number.POSITIVE_INFINITY).news, slack);
    const got: number[] = [];
    clock.at(10, (now) => got.push(now));
    clock.at(11, (now) => got.push(now));
    jump(20);
    expect(got).toEqual([20 - LATE_SLACK_MS, 20 - LATE_SLACK_MS]);
  });

  it('reads the slack when an action runs, so a slack that grows during a run forgives later lateness', () => {
    const { wall, jump } = manualWall();
    let slackMs = 0.5;
    const clock = new NewsClock(wall, news(Number.POSITIVE_INFINITY).news, () => slackMs);
    const got: number[] = [];
    clock.at(10, (now) => got.push(now));
    jump(13);
    slackMs = 4;
    clock.at(20, (now) => got.push(now));
    jump(23);
    // 3 ms late under a 0.5 ms slack counts (12.5); 3 ms late under a 4 ms slack is forgiven (20).
    expect(got).toEqual([12.5, 20]);
  });

  it('reads as now, inside an action, the time it was handed, so a timer set there does not move the model on', () => {
    const { wall, jump } = manualWall();
    const clock = new NewsClock(wall, news(Number.POSITIVE_INFINITY).news, () => 2);
    const got: number[] = [];
    clock.at(10, () => {
      got.push(clock.now);
      clock.at(14, (now) => got.push(now));
    });
    jump(11.5);
    // Run 1.5 ms late, within the slack: handed 10, it reads 10, not 11.5, and the next, run 1.5 ms late too, gets 14.
    jump(15.5);
    expect(got).toEqual([10, 14]);
  });

  it('hands a datagram the time it reached the relay, after the actions due before it, never a time already read or to come', () => {
    const { wall, stall, jump } = manualWall();
    const clock = new NewsClock(wall, news(Number.POSITIVE_INFINITY).news, () => 5);
    const got: string[] = [];
    clock.at(10, (now) => got.push(`timeout@${now}`));
    clock.at(13, (now) => got.push(`send@${now}`));
    // Read at 14 here, its timers not yet run: the reply reached the relay at 12 on this side's clock.
    stall(14);
    clock.arrival(12, (now) => got.push(`reply@${now}`));
    expect(got).toEqual(['timeout@10', 'reply@12']);
    jump(14);
    expect(got).toEqual(['timeout@10', 'reply@12', 'send@13']);
    // Stamped before a time the model has read, it is handed that time; stamped ahead of this side's clock
    // (the clocks' match is an estimate), it is handed now.
    clock.arrival(12.5, (now) => got.push(`behind@${now}`));
    clock.arrival(15, (now) => got.push(`ahead@${now}`));
    expect(got.slice(3)).toEqual(['behind@13', 'ahead@14']);
  });

  it('never hands an action a time before one the model has already read', () => {
    const { wall, advance, jump } = manualWall();
    const clock = new NewsClock(wall, news(Number.POSITIVE_INFINITY).news, slack);
    const got: number[] = [];
    clock.at(10, (now) => got.push(now));
    advance(9.9);
    jump(10.3);
    expect(got).toEqual([10]);
    clock.at(10.5, (now) => got.push(now));
    jump(10.7);
    // A reply read at 10.7 moves the floor there: an action due at 10.6 that runs now is handed 10.7.
    expect(clock.now).toBe(10.7);
    clock.at(10.6, (now) => got.push(now));
    advance(10.95);
    expect(got).toEqual([10, 10.5, 10.7]);
  });
});
