/**
 * Writes values at most once per `everyMs`: the first of a quiet spell at once, the last of a burst (a
 * slider's drag) when the spell ends, and none twice in a row. `flush` writes a waiting one now.
 */
export function throttledWriter(write: (value: string) => void, everyMs: number): { write(value: string): void; flush(): void } {
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
      put(waiting);
      waiting = null;
      spell();
    }, everyMs);
  };
  return {
    write(value) {
      if (timer !== null) {
        waiting = value;
        return;
      }
      put(value);
      spell();
    },
    flush() {
      if (waiting !== null) put(waiting);
      waiting = null;
    },
  };
}
