import { useEffect, useState } from 'react';
import type { Slot } from '../worker/protocol.ts';
import type { WorkerPool } from '../worker/pool.ts';
import type { Pace } from '../worker/watchdog.ts';

/** How long the user's code runs before its side says how slowly, ms. */
export const SLOW_AFTER_MS = 3000;
/** A callback's time from which code is slow, ms: a built-in's take microseconds, and a run makes 10⁵ of them. */
const SLOW_CALLBACK_MS = 1;

/**
 * What a side says of its user code once it has run SLOW_AFTER_MS: the time its callbacks take. A
 * controller whose every callback takes 150 ms stays under each callback's budget, so nothing stops it,
 * and a contest run makes one per packet: it would run for hours, the side saying only "updating…".
 */
export function slowNote(pace: Pace | null): string | null {
  if (!pace || pace.ms < SLOW_AFTER_MS || pace.callbacks === 0) return null;
  const s = Math.floor(pace.ms / 1000);
  const each = pace.ms / pace.callbacks;
  if (each < SLOW_CALLBACK_MS) return null;
  return `your controller is slow: ${pace.callbacks} callbacks in ${s} s, about ${each < 10 ? each.toFixed(1) : Math.round(each)} ms each on average; a run makes one or more for each packet`;
}

/** Each busy side's slow note, looked at every second while a side is busy. */
export function useSlowNotes(pool: WorkerPool, busy: Partial<Record<Slot, boolean>>): Partial<Record<Slot, string>> {
  const [notes, setNotes] = useState<Partial<Record<Slot, string>>>({});
  const [a, b] = [Boolean(busy.a), Boolean(busy.b)];
  useEffect(() => {
    const look = () =>
      setNotes((was) => {
        const now = { a: a ? (slowNote(pool.pace('a')) ?? undefined) : undefined, b: b ? (slowNote(pool.pace('b')) ?? undefined) : undefined };
        return now.a === was.a && now.b === was.b ? was : now;
      });
    look();
    if (!a && !b) return;
    const timer = setInterval(look, 1000);
    return () => clearInterval(timer);
  }, [pool, a, b]);
  return notes;
}
