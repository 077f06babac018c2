import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Relay } from '../../server/relay.ts';
import { agrees, arrivalsSeen, courseSchedules, playOverUdp, referenceSpread, type Schedule } from '../fixtures/schedules.ts';
import { testRelay } from '../helpers/relay.ts';

/**
 * The relay's offset servers against a reference of the course server's arithmetic: the same request
 * schedules sent over real UDP, and given to the reference at the whole milliseconds the relay read them
 * (from its session records), so that only the loss draws differ.
 */
describe('offset server vs the course server reference', () => {
  let relay: Relay;
  beforeAll(async () => {
    relay = await testRelay({ fileSize: 1_000_000, recordEvents: 100_000 });
  });
  afterAll(() => relay.close());

  const check = async (schedules: Schedule[]) => {
    const port = (s: Schedule) => Number((s.variable ? relay.info.offsetVariable : relay.info.offsetConstant).split(':')[1]);
    const runs = await Promise.all(schedules.map((s) => playOverUdp(port(s), s)));
    for (const [i, s] of schedules.entries()) {
      const seen = await arrivalsSeen(relay.url, runs[i].localPort);
      expect(seen.times.length, `${s.name}: requests recorded`).toBe(s.times.length);
      const ref = referenceSpread(s, seen.times);
      const got = { ...runs[i], squishes: seen.squishes };
      const said = (what: 'replies' | 'penalty' | 'squishes') => `${s.name}: ${what} ${got[what]}, reference ${ref[what].median} (${ref[what].min}–${ref[what].max})`;
      expect(agrees(got.replies, ref.replies, s.times.length), said('replies')).toBe(true);
      expect(agrees(got.penalty, ref.penalty, s.times.length), said('penalty')).toBe(true);
      // squish episodes: what a client that never slows down sees most plainly
      expect(got.squishes >= ref.squishes.min - 1 && got.squishes <= ref.squishes.max + 1, said('squishes')).toBe(true);
    }
  };

  it('constant rate: 1 per 2, 4, 5, 8 ms, bursts of 10 per 40 ms, a flood then a pause', () => check(courseSchedules(4000, 0).filter((s) => !s.variable)), 30_000);

  it('variable rate: 1 per 1, 4, 8 ms', () => check(courseSchedules(0, 6000).filter((s) => s.variable)), 30_000);
});
