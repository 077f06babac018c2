import { MAX_TIMED_LEAD_MS, MAX_TIMED_PENDING, MAX_TIMED_PENDING_BYTES, TIMED_PREFIX } from '../shared/bridge/protocol.ts';
import { WallClock } from '../live/wallClock.ts';

/**
 * What all the timed sessions of one client address may park at once. A page's timed fetch parks its lead
 * (at most 10 ms, live/relayClock.ts MAX_LEAD_MS) of datagrams: 10 at 1,000 requests/s, so 40 students behind
 * one address need a few hundred. Without it, 80 sessions of one address parked 40,000 datagrams, each
 * session's clock polling near its next deadline, and a page of another address waited 230 ms for a reply.
 */
export const MAX_TIMED_PENDING_PER_CLIENT = 4 * MAX_TIMED_PENDING;
export const MAX_TIMED_PENDING_BYTES_PER_CLIENT = 4 * MAX_TIMED_PENDING_BYTES;

/** The datagrams and bytes an address's timed sessions have parked, together. */
export interface TimedPool {
  pending: number;
  bytes: number;
}

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
export function timedSender(relayNow: () => number, send: (datagram: Buffer, number: number, arrivedAt: number) => void, pool: TimedPool = { pending: 0, bytes: 0 }): TimedSender {
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
  const park = (bytes: number, count: number) => {
    pending += count;
    pendingBytes += bytes;
    pool.pending += count;
    pool.bytes += bytes;
  };
  /** Why a datagram of `length` bytes cannot be parked, in this session or among its address's. */
  const parkingFull = (length: number): string | null => {
    if (pending >= MAX_TIMED_PENDING) return `more than ${MAX_TIMED_PENDING} timed messages waiting`;
    if (pendingBytes + length > MAX_TIMED_PENDING_BYTES) return `more than ${MAX_TIMED_PENDING_BYTES} bytes of timed messages waiting`;
    if (pool.pending >= MAX_TIMED_PENDING_PER_CLIENT) return `more than ${MAX_TIMED_PENDING_PER_CLIENT} timed messages of this address's sessions waiting`;
    if (pool.bytes + length > MAX_TIMED_PENDING_BYTES_PER_CLIENT) return `more than ${MAX_TIMED_PENDING_BYTES_PER_CLIENT} bytes of timed messages of this address's sessions waiting`;
    return null;
  };
  return {
    push(message, number) {
      if (message.length < TIMED_PREFIX) return `a timed message starts with an ${TIMED_PREFIX}-byte send time`;
      const sendAt = message.readDoubleBE(0);
      const now = relayNow();
      if (!Number.isFinite(sendAt)) return 'the send time of a timed message is not a finite number';
      if (sendAt - now > MAX_TIMED_LEAD_MS) return `a timed message may be at most ${MAX_TIMED_LEAD_MS} ms ahead (got ${Math.round(sendAt - now)} ms)`;
      const datagram = message.subarray(TIMED_PREFIX);
      if (sendAt <= now) {
        send(datagram, number, now);
        return null;
      }
      const full = parkingFull(datagram.length);
      if (full) return full;
      park(datagram.length, 1);
      clock.at(sendAt - origin, () => {
        park(-datagram.length, -1);
        send(datagram, number, now);
      });
      return null;
    },
    get pending() {
      return pending;
    },
    close() {
      clock.stop();
      // What it parked is dropped: the address may park as much again.
      park(-pendingBytes, -pending);
    },
  };
}
