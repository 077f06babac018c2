import { describe, expect, it } from 'vitest';
import { cpuWaitMs, MAX_STRETCH, wallSpent } from '../../server/contest/runClock.ts';

describe("a contest run's wall-clock limit", () => {
  it('counts the time a run ran or was blocked, not the time it waited for a CPU', () => {
    expect(wallSpent(19_999, 0, 20_000)).toBe(false);
    expect(wallSpent(20_000, 0, 20_000)).toBe(true);
    // 30 s in all, 12 s of them waiting for a CPU: 18 s of its own
    expect(wallSpent(30_000, 12_000, 20_000)).toBe(false);
    expect(wallSpent(30_000, 10_000, 20_000)).toBe(true);
  });

  it('ends a run on a machine that busy at MAX_STRETCH times the limit', () => {
    expect(MAX_STRETCH).toBe(5);
    expect(wallSpent(99_999, 90_000, 20_000)).toBe(false);
    expect(wallSpent(100_000, 95_000, 20_000)).toBe(true);
  });

  it("reads this process's own wait from the kernel, and 0 for a process that is gone", () => {
    expect(cpuWaitMs(process.pid)).toBeGreaterThanOrEqual(0);
    expect(cpuWaitMs(2 ** 22 + 12_345)).toBe(0);
  });
});
