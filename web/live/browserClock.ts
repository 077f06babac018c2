import { WallClock } from '../../live/wallClock.ts';

/** A MessageChannel round trip: the browser's "run soon, after pending events" for the wall clock. */
function yieldViaChannel(): (f: () => void) => void {
  const ch = new MessageChannel();
  const queue: (() => void)[] = [];
  ch.port1.onmessage = () => queue.shift()?.();
  return (f) => {
    queue.push(f);
    ch.port2.postMessage(0);
  };
}

/** A wall clock for a page or worker. */
export function browserClock(): WallClock {
  return new WallClock({
    now: () => performance.now(),
    setTimer: (f, ms) => setTimeout(f, ms),
    clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    yieldTo: yieldViaChannel(),
  });
}
