import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Relay } from '../../server/relay.ts';
import { agrees, courseSchedules, playOverUdp, referenceSpread, type Schedule } from '../fixtures/schedules.ts';
import { testRelay } from '../helpers/relay.ts';

/**
 * The relay's offset servers against a reference of the course server's arithmetic: the same request
 * schedules, sent over real UDP and fed (at the times they actually left) to the reference.
 */
describe('offset server vs the course server reference', () => {
  let relay: Relay;
  beforeAll(async () => {
    relay = await testRelay({ fileSize: 1_000_000 });
  });
  afterAll(() => relay.close());

  const check = async (schedules: Schedule[]) => {
    const port = (s: Schedule) => Number((s.variable ? relay.info.offsetVariable : relay.info.offsetConstant).split(':')[1]);
    const runs = await Promise.all(schedules.map((s) => playOverUdp(port(s), s)));
    schedules.forEach((s, i) => {
      const ref = referenceSpread(s, runs[i].sentAt);
      const said = (what: 'replies' | 'penalty') => `${s.name}: ${what} ${runs[i][what]}, reference ${ref[what].median} (${ref[what].min}–${ref[what].max})`;
      expect(agrees(runs[i].replies, ref.replies, s.times.length), said('replies')).toBe(true);
      expect(agrees(runs[i].penalty, ref.penalty, s.times.length), said('penalty')).toBe(true);
    });
  };

  it('constant rate: 1 per 2, 4, 5, 8 ms, bursts of 10 per 40 ms, a flood then a pause', () => check(courseSchedules(2000, 0).filter((s) => !s.variable)), 30_000);

  it('variable rate: 1 per 1, 4, 8 ms', () => check(courseSchedules(0, 6000).filter((s) => s.variable)), 30_000);
});
