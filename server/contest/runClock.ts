import { readFileSync } from 'node:fs';

/** How long a process's main thread has waited for a CPU so far, ms (the kernel's schedstat); 0 where it cannot be read. */
export function cpuWaitMs(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6 || 0;
  } catch {
    return 0;
  }
}

/** The most a busy machine may stretch a run's wall-clock limit, as a multiple of it. */
export const MAX_STRETCH = 5;

/**
 * Whether a run has used up its wall-clock limit. The time it ran or was blocked counts; the time it was
 * ready but waited for a CPU the machine gave to others does not: a scorer runs niced, and on a busy
 * machine it waits most of its time, which is not the controller's doing. A machine that busy still ends
 * the run at MAX_STRETCH times the limit.
 */
export function wallSpent(elapsedMs: number, waitedMs: number, limitMs: number): boolean {
  return elapsedMs - waitedMs >= limitMs || elapsedMs >= MAX_STRETCH * limitMs;
}
