import { readFileSync } from 'node:fs';
import type { TestContext } from 'vitest';

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
