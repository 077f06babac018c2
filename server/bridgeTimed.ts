import { MAX_TIMED_LEAD_MS, MAX_TIMED_PENDING, MAX_TIMED_PENDING_BYTES, TIMED_PREFIX } from '../shared/bridge/protocol.ts';
import { WallClock } from '../live/wallClock.ts';

export interface TimedSender {
  /** Queues a timed message (send time prefix + datagram); returns why it is refused, or null. */
  push(message: Buffer, number: number): string | null;
  readonly pending: number;
  close(): void;
}

/**
 * Sends a session's datagrams at the relay-clock times the page asked for, with the wall clock's
 * sub-millisecond polling near each deadline. A time already past goes out at once; one too far ahead,
 * or a queue already full, is refused so that a page cannot park unbounded work here.
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
  let pending = 0;
  let pendingBytes = 0;
  return {
    push(message, number) {
      if (message.length < TIMED_PREFIX) return `a timed message starts with an ${TIMED_PREFIX}-byte send time`;
      const sendAt = message.readDoubleBE(0);
      const now = relayNow();
      if (!Number.isFinite(sendAt)) return 'the send time of a timed message is not a finite number';
      if (sendAt - now > MAX_TIMED_LEAD_MS) return `a timed message may be at most ${MAX_TIMED_LEAD_MS} ms ahead (got ${Math.round(sendAt - now)} ms)`;
      const datagram = message.subarray(TIMED_PREFIX);
      if (sendAt > now && pending >= MAX_TIMED_PENDING) return `more than ${MAX_TIMED_PENDING} timed messages waiting`;
      if (sendAt > now && pendingBytes + datagram.length > MAX_TIMED_PENDING_BYTES) return `more than ${MAX_TIMED_PENDING_BYTES} bytes of timed messages waiting`;
      if (sendAt <= now) {
        send(datagram, number, now);
        return null;
      }
      pending++;
      pendingBytes += datagram.length;
      clock.at(sendAt - origin, () => {
        pending--;
        pendingBytes -= datagram.length;
        send(datagram, number, now);
      });
      return null;
    },
    get pending() {
      return pending;
    },
    close: () => clock.stop(),
  };
}
