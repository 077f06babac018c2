import { MAX_TIMED_LEAD_MS, MAX_TIMED_PENDING, MAX_TIMED_SLIP_MS, TIMED_CATCH_UP, TIMED_PREFIX } from '../shared/bridge/protocol.ts';
import { WallClock } from '../live/wallClock.ts';

export interface TimedSender {
  /** Queues a timed message (send time prefix + datagram); returns why it is refused, or null. */
  push(message: Buffer, number: number): string | null;
  readonly pending: number;
  close(): void;
}

interface Waiting {
  asked: number;
  datagram: Buffer;
  number: number;
  arrivedAt: number;
}

/**
 * Sends a session's datagrams, in the order they came, at the relay-clock times the page asked for, with
 * the wall clock's sub-millisecond polling near each deadline. None leaves sooner after the one before
 * than the page asked: one that arrived late (the hop held it up), or whose turn came late (this loop
 * was busy), keeps its spacing, the schedule slipping by up to MAX_TIMED_SLIP_MS, rather than bunching
 * with the one before, as a server counting tokens by the whole millisecond takes two requests closer
 * than asked for one too early. A slipped schedule catches up by TIMED_CATCH_UP of each spacing; beyond
 * the slip a datagram goes at once. A time too far ahead, or a queue already full, is refused so that a
 * page cannot park unbounded work here.
 */
export function timedSender(relayNow: () => number, send: (datagram: Buffer, number: number, arrivedAt: number) => void): TimedSender {
  const clock = new WallClock({
    now: relayNow,
    setTimer: (f, ms) => setTimeout(f, ms),
    clearTimer: (h) => clearTimeout(h as NodeJS.Timeout),
    yieldTo: setImmediate,
  });
  // The wall clock counts from its making; the page speaks relay time.
  const origin = relayNow() - clock.now;
  const queue: Waiting[] = [];
  // The last datagram sent: the time it asked for and the time it left. A wake-up already set, if any.
  let lastAsked = 0;
  let lastSent = Number.NEGATIVE_INFINITY;
  let wakeAt = Number.NEGATIVE_INFINITY;
  const dueOf = (w: Waiting) => Math.max(w.asked, Math.min(lastSent + Math.max(0, w.asked - lastAsked) * (1 - TIMED_CATCH_UP), w.asked + MAX_TIMED_SLIP_MS));
  const pump = () => {
    while (queue.length > 0) {
      const due = dueOf(queue[0]);
      const now = relayNow();
      if (due > now) {
        // A wake-up still to come by then runs this again; a stale one finds nothing due.
        if (wakeAt <= now || wakeAt > due) {
          wakeAt = due;
          clock.at(due - origin, pump);
        }
        return;
      }
      const w = queue.shift()!;
      lastAsked = w.asked;
      lastSent = now;
      send(w.datagram, w.number, w.arrivedAt);
    }
  };
  return {
    push(message, number) {
      if (message.length < TIMED_PREFIX) return `a timed message starts with an ${TIMED_PREFIX}-byte send time`;
      const asked = message.readDoubleBE(0);
      const now = relayNow();
      if (!Number.isFinite(asked)) return 'the send time of a timed message is not a number';
      if (asked - now > MAX_TIMED_LEAD_MS) return `a timed message may be at most ${MAX_TIMED_LEAD_MS} ms ahead (got ${Math.round(asked - now)} ms)`;
      if (queue.length >= MAX_TIMED_PENDING) return `more than ${MAX_TIMED_PENDING} timed messages waiting`;
      queue.push({ asked, datagram: message.subarray(TIMED_PREFIX), number, arrivedAt: now });
      if (queue.length === 1) pump();
      return null;
    },
    get pending() {
      return queue.length;
    },
    close: () => {
      queue.length = 0;
      clock.stop();
    },
  };
}
