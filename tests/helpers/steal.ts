import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
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
 * judges happens while it works.
 */
export const TIMER_LAG_LIMIT_MS = 1;
/** The share of the timers TIMER_LAG_LIMIT_MS is judged at. */
const TIMER_LAG_QUANTILE = 0.9;

/** The longest a timer-lag meter runs: it stops by itself even when its check failed before stopping it. */
const TIMER_LAG_MAX_MS = 60_000;
/**
 * Threads a timed check keeps ready to run by itself, beyond the cores, before the machine counts as
 * crowded: on a quiet two-core machine the timed files averaged 1.1 to 2.2 (the test's process, its relay,
 * the programs it starts), and each CPU-bound loop beside them adds one.
 */
const CROWD_OWN = 1;
/** Every how many ticks the meter counts the machine's runnable threads (a read of /proc/stat each). */
const CROWD_EVERY = 16;

/** The threads the kernel has running or ready to run now, this one among them; null where it does not say. */
function runnable(): number | null {
  try {
    const m = /^procs_running (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** A meter of this process's timer lateness and the machine's runnable threads (timerLagMeter). */
export type TimerLag = { late(): number; crowd(): number; stop(): void };

/**
 * Measures how late this process's own 1 ms timers fire while a timed check runs (how long the machine
 * keeps a process that asks for the CPU waiting, whatever took the CPU: the hypervisor or another process),
 * and how many threads the machine had ready to run meanwhile. A timer is a sleeper, which the scheduler
 * favours when it wakes: beside CPU-bound loops its lateness can stay low while code that polls a
 * deadline (the relay's timed sends, the link's clock) waits behind them, so more runnable threads than
 * cores count as starvation too.
 */
export function timerLagMeter(): TimerLag {
  const lags: number[] = [];
  const crowd: number[] = [];
  const started = performance.now();
  let at = started;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const tick = () => {
    const now = performance.now();
    lags.push(now - at - 1);
    at = now;
    if (lags.length % CROWD_EVERY === 1) {
      const n = runnable();
      if (n !== null) crowd.push(n);
    }
    timer = now - started < TIMER_LAG_MAX_MS ? setTimeout(tick, 1).unref() : null;
  };
  timer = setTimeout(tick, 1).unref();
  return {
    // no samples (stopped at once): NaN, which no limit exceeds
    late: () => percentile(lags, TIMER_LAG_QUANTILE),
    crowd: () => crowd.reduce((a, b) => a + b, 0) / crowd.length,
    stop: () => {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

/**
 * As judgeTimingUnlessStolen, and skips too when one in ten of the process's own timers was late past
 * TIMER_LAG_LIMIT_MS, or, for a check that runs `alone` (the suite's timed files run one at a time), the
 * machine had more threads ready to run than its cores and CROWD_OWN, on average: beside other test files
 * or a browser, the suite crowds the machine itself.
 */
export function judgeTimingUnlessStarved(ctx: TestContext, steal: { share(): number }, lag: TimerLag, { alone = false } = {}): void {
  lag.stop();
  judgeTimingUnlessStolen(ctx, steal);
  const late = lag.late();
  if (late > TIMER_LAG_LIMIT_MS) ctx.skip(`one in ten of this process's 1 ms timers fired ${late.toFixed(2)} ms late or more during the measurement: timing not judged`);
  if (!alone) return;
  const crowd = lag.crowd();
  const cores = availableParallelism();
  if (crowd > cores + CROWD_OWN) ctx.skip(`the machine had ${crowd.toFixed(1)} threads ready to run on ${cores} cores, on average, during the measurement: timing not judged`);
}
