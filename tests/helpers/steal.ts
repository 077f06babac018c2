import { readFileSync } from 'node:fs';
import type { TestContext } from 'vitest';
import { percentile } from '../../shared/metrics/percentile.ts';

/** Above this share of the CPU taken by the hypervisor, a timer or a packet's timing says more of it than of the code. */
export const STEAL_LIMIT = 0.15;

/** The machine's CPU time so far (all cores, in ticks): what it ran and what the hypervisor took for others. */
function cpuTicks(): { steal: number; total: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    return { steal: steal || 0, total: user + nice + system + idle + iowait + irq + softirq + (steal || 0) };
  } catch {
    return { steal: 0, total: 0 };
  }
}

/**
 * Measures the CPU stolen from this virtual machine while a timed check runs. On a host that steals much of
 * the CPU, a process waits tens of milliseconds for its turn, and no millisecond figure can be judged.
 */
export function stealMeter(): { share(): number } {
  const from = cpuTicks();
  return {
    share() {
      const to = cpuTicks();
      const total = to.total - from.total;
      return total > 0 ? (to.steal - from.steal) / total : 0;
    },
  };
}

/**
 * Skips the rest of a test (its timing figures), saying why, when the hypervisor took more than
 * STEAL_LIMIT of the CPU since `meter` began. Checks before this call have been made either way.
 */
export function judgeTimingUnlessStolen(ctx: TestContext, meter: { share(): number }): void {
  const share = meter.share();
  if (share > STEAL_LIMIT) ctx.skip(`the hypervisor took ${Math.round(share * 100)}% of the CPU during the measurement: timing not judged`);
}

/**
 * Above this lateness of one in ten of the process's own 1 ms timers, ms, the machine did not run it when
 * asked. Not the median: the timers tick evenly, mostly while the process idles, where what a timed test
 * judges happens while it works; beside two CPU-bound loops the median timer was 0.13 ms late while the
 * relay's timed sends, made in the busy moments, were 1.2–1.5 ms late at the median, and one timer in ten
 * was 2 ms late.
 */
export const TIMER_LAG_LIMIT_MS = 1;
/** The share of the timers TIMER_LAG_LIMIT_MS is judged at. */
const TIMER_LAG_QUANTILE = 0.9;

/** The longest a timer-lag meter runs: it stops by itself even when its check failed before stopping it. */
const TIMER_LAG_MAX_MS = 60_000;

/**
 * Measures how late this process's own 1 ms timers fire while a timed check runs: how long the machine
 * keeps a process that asks for the CPU waiting, whatever took the CPU (the hypervisor or another process).
 */
export function timerLagMeter(): { late(): number; stop(): void } {
  const lags: number[] = [];
  const started = performance.now();
  let at = started;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const tick = () => {
    const now = performance.now();
    lags.push(now - at - 1);
    at = now;
    timer = now - started < TIMER_LAG_MAX_MS ? setTimeout(tick, 1).unref() : null;
  };
  timer = setTimeout(tick, 1).unref();
  return {
    // no samples (stopped at once): NaN, which no limit exceeds
    late: () => percentile(lags, TIMER_LAG_QUANTILE),
    stop: () => {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

/** As judgeTimingUnlessStolen, and skips too when one in ten of the process's own timers was late past TIMER_LAG_LIMIT_MS. */
export function judgeTimingUnlessStarved(ctx: TestContext, steal: { share(): number }, lag: { late(): number; stop(): void }): void {
  lag.stop();
  judgeTimingUnlessStolen(ctx, steal);
  const late = lag.late();
  if (late > TIMER_LAG_LIMIT_MS) ctx.skip(`one in ten of this process's 1 ms timers fired ${late.toFixed(2)} ms late or more during the measurement: timing not judged`);
}
