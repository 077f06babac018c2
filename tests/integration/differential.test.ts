import { afterAll, beforeAll, describe, type ExpectStatic, it } from 'vitest';
import type { Relay } from '../../server/relay.ts';
import { arrivalsSeen, courseSchedules, playOnModel, playOverUdp, type Schedule } from '../fixtures/schedules.ts';
import { testRelay } from '../helpers/relay.ts';

/**
 * The relay's offset servers against a reference of the course server's arithmetic: the same request
 * schedules sent over real UDP, and given to the reference at the whole milliseconds the relay read them
 * (from its session records) with the relay's loss outcomes, so that the two must agree exactly: replies,
 * penalty and squish episodes. (`npm run bench -- relay` also compares them with the reference's own loss
 * draws over many seeds.)
 */
describe('offset server vs the course server reference', () => {
  let relay: Relay;
  beforeAll(async () => {
    relay = await testRelay({ fileSize: 1_000_000, recordEvents: 100_000 });
  });
  afterAll(() => relay.close());

  const check = async (expect: ExpectStatic, schedules: Schedule[]) => {
    const port = (s: Schedule) => Number((s.variable ? relay.info.offsetVariable : relay.info.offsetConstant).split(':')[1]);
    const runs = await Promise.all(schedules.map((s) => playOverUdp(port(s), s)));
    for (const [i, s] of schedules.entries()) {
      const seen = await arrivalsSeen(relay, runs[i].localPort);
      expect(seen.times.length, `${s.name}: requests recorded`).toBe(s.times.length);
      const got = { replies: seen.replies, penalty: runs[i].penalty, squishes: seen.squishes };
      const replayed = playOnModel(s, seen.times, 0, seen.losses);
      expect(got, `${s.name}, the relay's losses replayed`).toEqual(replayed);
      expect(runs[i].replies, `${s.name}: replies the client received`).toBeLessThanOrEqual(seen.replies);
      expect(runs[i].replies, `${s.name}: replies the client received`).toBeGreaterThanOrEqual(0.98 * seen.replies);
    }
  };

  // The two servers are separate sockets and the reference is given the times the relay read: the rates
  // are played at once, each test with its own expect.
  it.concurrent(
    'constant rate: 1 per 2, 4, 5, 8 ms, bursts of 10 per 40 ms, a flood then a pause',
    ({ expect }) =>
      check(
        expect,
        courseSchedules(4000, 0).filter((s) => !s.variable),
      ),
    30_000,
  );

  it.concurrent(
    'variable rate: 1 per 1, 4, 8 ms',
    ({ expect }) =>
      check(
        expect,
        courseSchedules(0, 6000).filter((s) => s.variable),
      ),
    30_000,
  );
});
