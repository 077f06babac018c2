import type { Action, Clock } from '../shared/sim/scheduler.ts';

/**
 * What a platform lends the wall clock. This folder compiles against no platform's types, so Node and the
 * browser hand their own timers in (server/clock.ts, web/live/browserClock.ts).
 */
export interface Timers {
  /** Milliseconds on a monotonic clock (performance.now). */
  now(): number;
  setTimer(f: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
  /**
   * Runs a function soon, after pending I/O (setImmediate in Node): the clock then polls near a deadline
   * for sub-millisecond timing. Without it the clock only sleeps, and an action may run a timer's
   * lateness after its time: for a side whose datagrams the relay sends on time (web/live/browserClock.ts).
   */
  yieldTo?(f: () => void): void;
}

/**
 * How close to a deadline a polling clock stops sleeping: it sleeps until half a millisecond before and
 * polls the rest. Node's timers fire up to about a millisecond early (its loop reads the clock once a
 * turn) and mostly under half a millisecond late. Polling from 2 ms before took half a core per timed
 * session on the relay, which made everything else on a busy machine late: measured over a token-pacer
 * fetch, the relay's CPU went from 1.8 to 0.85 s and its sends' lateness p99 from 3.2–4.0 to 1.6–2.2 ms.
 */
const POLL_WITHIN_MS = 1.5;

/**
 * The model's Clock on the wall: milliseconds since it was made. Actions run close to their deadline:
 * a timer sleeps until just before, then the loop polls (through `yieldTo`) so that
 * a pacer spacing requests 4 ms apart is not thrown off by timers' whole-millisecond granularity.
 * Socket events keep flowing between polls.
 */
export class WallClock implements Clock {
  private readonly origin: number;
  private pending: { at: number; order: number; action: Action }[] = [];
  private counter = 0;
  private sleeping: unknown = null;
  private polling = false;
  private stopped = false;

  constructor(private readonly timers: Timers) {
    this.origin = timers.now();
  }

  get now(): number {
    return this.timers.now() - this.origin;
  }

  at(at: number, action: Action): void {
    if (this.stopped) return;
    const entry = { at, order: this.counter++, action };
    let i = this.pending.length;
    while (i > 0 && (this.pending[i - 1].at > at || (this.pending[i - 1].at === at && this.pending[i - 1].order > entry.order))) i--;
    this.pending.splice(i, 0, entry);
    if (i === 0) this.arm();
  }

  /**
   * Runs now the actions due by `upTo` (no later than now) that a late timer has not run yet: an event
   * that happened at `upTo` then comes after them, as it would have with timers on time.
   */
  runDue(upTo: number): void {
    const until = Math.min(upTo, this.now);
    while (!this.stopped && this.pending.length > 0 && this.pending[0].at <= until) this.pending.shift()!.action(this.now);
    // What fell due after `upTo` runs after the caller's event, as its timer would have: not from here.
    if (this.pending.length > 0 && this.pending[0].at <= this.now) this.soon();
    else this.arm();
  }

  /** Polls on the loop's next turn (a clock that cannot poll sleeps 0 ms), whatever it slept until. */
  private soon(): void {
    if (this.polling || this.stopped) return;
    this.wake();
    if (this.timers.yieldTo) this.pollNext(this.timers.yieldTo);
    else this.sleep(0);
  }

  stop(): void {
    this.stopped = true;
    this.pending = [];
    this.wake();
  }

  private arm(): void {
    if (this.polling || this.stopped) return;
    this.wake();
    const first = this.pending[0];
    if (!first) return;
    const wait = first.at - this.now;
    if (wait <= POLL_WITHIN_MS && this.timers.yieldTo) return this.poll();
    // A polling clock wakes a little early and polls the rest; one that only sleeps wakes at the time.
    this.sleep(Math.max(0, wait - (this.timers.yieldTo ? POLL_WITHIN_MS - 1 : 0)));
  }

  private sleep(ms: number): void {
    this.sleeping = this.timers.setTimer(() => {
      this.sleeping = null;
      this.poll();
    }, ms);
  }

  /** Calls off the timer it sleeps on, if any. */
  private wake(): void {
    if (this.sleeping !== null) this.timers.clearTimer(this.sleeping);
    this.sleeping = null;
  }

  private pollNext(yieldTo: (f: () => void) => void): void {
    this.polling = true;
    yieldTo(this.poll);
  }

  private poll = (): void => {
    this.polling = false;
    if (this.stopped) return;
    while (this.pending.length > 0 && this.pending[0].at <= this.now) this.pending.shift()!.action(this.now);
    if (this.pending.length === 0) return;
    if (this.pending[0].at - this.now > POLL_WITHIN_MS || !this.timers.yieldTo) return this.arm();
    this.pollNext(this.timers.yieldTo);
  };
}
