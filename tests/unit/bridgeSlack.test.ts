import { describe, expect, it } from 'vitest';
import { HOP_SPARE_MS, slackLeft } from '../../web/live/bridgeFetch.ts';

describe('slackLeft', () => {
  it('is the delay less the slowest of the latest hops and the spare', () => {
    // 10 ms of delay, hops of 0.4, 1.5 and 0.8 ms: 10 − 1.5 − 0.5.
    expect(slackLeft(10, [0.4, 1.5, 0.8])).toBe(8);
    expect(HOP_SPARE_MS).toBe(0.5);
  });

  it('is none while no hop is known, and none when a hop took the whole delay', () => {
    expect(slackLeft(5, [])).toBe(0);
    expect(slackLeft(5, [0.3, 6])).toBe(0);
  });
});
