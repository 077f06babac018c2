/**
 * Writes values at most once per `everyMs`: the first of a quiet spell at once, the last of a burst (a
 * slider's drag) when the spell ends, and none twice in a row. `flush` writes a waiting one now and ends
 * the spell (what comes after a flush is the next action's, whose first value is written at once);
 * `postpone` gives a waiting one a whole spell from then; `drop` forgets it (and gives it back);
 * `holding` says whether one waits.
 */
export function throttledWriter(write: (value: string) => void, everyMs: number) {
  let last: string | null = null;
  let waiting: string | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const put = (value: string) => {
    if (value !== last) write(value);
    last = value;
  };
  const spell = () => {
    timer = setTimeout(() => {
      timer = null;
      if (waiting === null) return;
      // what waits is written, so nothing is held while it is
      const value = waiting;
      waiting = null;
      put(value);
      spell();
    }, everyMs);
  };
  return {
    write(value: string) {
      if (timer !== null) {
        waiting = value;
        return;
      }
      put(value);
      spell();
    },
    flush() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      if (waiting !== null) put(waiting);
      waiting = null;
    },
    drop(): string | null {
      const dropped = waiting;
      waiting = null;
      return dropped;
    },
    postpone() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      if (waiting !== null) spell();
    },
    holding: () => waiting !== null,
  };
}
