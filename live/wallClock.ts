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
  /** Runs a function soon, after pending I/O: setImmediate in Node, a MessageChannel post in browsers. */
  yieldTo(f: () => void): void;
}

/**
 * How late an action may run and still be handed its due time. A page's clock reads in steps of 0.1 ms and
 * its polls take a fraction of a millisecond, so a pacer's timer fires a little late each time; a pacer
 * that books its next send from the time it is handed would lose that much on every request (5% of a
 * token pacer's 4.1 ms gap). Handed the due time, it keeps its schedule; later than this, the lateness
 * counts, so a stalled loop never makes up for the stall with a burst.
 */
export const LATE_SLACK_MS = 0.5;

/**
 * The model's Clock on the wall: milliseconds since it was made. Actions run close to their deadline:
 * a timer sleeps until a couple of milliseconds before, then the loop polls (through `yieldTo`) so that
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
  /** The latest time the model has been given: it never sees time go back. */
  private given = Number.NEGATIVE_INFINITY;

  constructor(private readonly timers: Timers) {
    this.origin = timers.now();
  }

  /** The time as the model reads it (a reply's arrival, a timer's start): no hand-out after it is earlier. */
  get now(): number {
    const t = this.elapsed;
    if (t > this.given) this.given = t;
    return t;
  }

  /** The wall's time for scheduling, which the model does not see. */
  get elapsed(): number {
    return this.timers.now() - this.origin;
  }

  /** The time to hand an action due at `due` that runs now: its due time, unless it runs over LATE_SLACK_MS late. */
  handOut(due: number): number {
    const t = Math.max(due, this.elapsed - LATE_SLACK_MS, this.given);
    this.given = t;
    return t;
  }

  at(at: number, action: Action): void {
    if (this.stopped) return;
    const entry = { at, order: this.counter++, action };
    let i = this.pending.length;
    while (i > 0 && (this.pending[i - 1].at > at || (this.pending[i - 1].at === at && this.pending[i - 1].order > entry.order))) i--;
    this.pending.splice(i, 0, entry);
    if (i === 0) this.arm();
  }

  stop(): void {
    this.stopped = true;
    this.pending = [];
    if (this.sleeping !== null) this.timers.clearTimer(this.sleeping);
    this.sleeping = null;
  }

  private arm(): void {
    if (this.polling || this.stopped) return;
    if (this.sleeping !== null) {
      this.timers.clearTimer(this.sleeping);
      this.sleeping = null;
    }
    const first = this.pending[0];
    if (!first) return;
    const wait = first.at - this.elapsed;
    if (wait > 3) {
      this.sleeping = this.timers.setTimer(() => {
        this.sleeping = null;
        this.poll();
      }, wait - 2);
    } else {
      this.poll();
    }
  }

  private poll = (): void => {
    this.polling = false;
    if (this.stopped) return;
    while (this.pending.length > 0 && this.pending[0].at <= this.elapsed) {
      const { at, action } = this.pending.shift()!;
      action(this.handOut(at));
    }
    if (this.pending.length === 0) return;
    if (this.pending[0].at - this.elapsed > 3) return this.arm();
    this.polling = true;
    this.timers.yieldTo(this.poll);
  };
}
