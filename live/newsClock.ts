import type { Action, Clock } from '../shared/sim/scheduler.ts';
import { MAX_HOLD_MS, type RelayNews } from './relayClock.ts';
import type { WallClock } from './wallClock.ts';

/**
 * How far the relay's news may trail an action. Replies stream in a few milliseconds apart, so news this
 * fresh holds nothing up in a steady fetch; it stays under the token pacer's shortest loss timeout (15 ms),
 * so a request that reached the relay at once has its reply heard before its timeout runs.
 */
export const NEWS_ALLOWANCE_MS = 10;

/**
 * The model's Clock on this side's wall clock, for a controller whose datagrams a relay sends a delay after
 * the time each was sent at (web/live/bridgeFetch.ts). An action due at T runs once this side has heard
 * what the relay heard until T − allowance (or after MAX_HOLD_MS): when the hop back is held up (a busy
 * machine), a reply on its way then still reaches the controller before a timeout could count it lost,
 * and no send goes out into the stall. Before a long wait ends it asks for fresh news, so an idle session
 * is not held up by a round trip.
 *
 * An action is handed its due time if it runs at most `slackMs()` late (never a time before one the model
 * has read): its sends still leave the relay at their places, as the relay keeps the time they are
 * stamped with, not when they reach it.
 */
export class NewsClock implements Clock {
  private readonly held: { at: number; action: Action }[] = [];
  /** The latest time the model has been given or has read: it never sees time go back. */
  private given = Number.NEGATIVE_INFINITY;
  /**
   * While an action or an arrival is handled, the time it was handed: what the model reads as `now` then.
   * Reading the wall instead (a timer set inside, say) would move the model on to when this side ran it,
   * and the next action would lose the slack it was forgiven.
   */
  private handling: number | null = null;

  constructor(
    private readonly wall: WallClock,
    private readonly news: RelayNews,
    /**
     * How late an action may run and still be handed its due time (it may change during a run). A pacer
     * whose timer fires a little late would otherwise book its next send from the late time and lose that
     * much on every request; handed its due time, it keeps its schedule. Later than this, lateness counts.
     */
    private readonly slackMs: () => number,
  ) {}

  get now(): number {
    if (this.handling !== null) return this.handling;
    this.given = Math.max(this.given, this.wall.now);
    return this.given;
  }

  at(at: number, action: Action): void {
    const askAt = at - NEWS_ALLOWANCE_MS;
    if (askAt - this.wall.now > NEWS_ALLOWANCE_MS) this.wall.at(askAt, () => this.news.heardUntil() < askAt && this.news.behind());
    this.wall.at(at, () => {
      this.held.push({ at, action });
      if (this.held.length === 1) this.wall.at(this.wall.now + MAX_HOLD_MS, () => this.release(true));
      this.release(false);
    });
  }

  /**
   * Hands `receive` a datagram's arrival at the relay, `t` on this side's clock, after running what was
   * due by then: the relay's stamp, not when this side got round to reading it, so a reply held up on the
   * hop back (a busy browser) neither lengthens the controller's round trip nor jumps ahead of a send or
   * timeout due before it. Never a time before one the model has read, nor a time to come.
   */
  arrival(t: number, receive: Action): void {
    this.wall.runDue(t);
    this.handle(Math.max(this.given, Math.min(t, this.wall.now)), receive);
    this.release();
  }

  /** Runs the held actions, in order, as far as the news has caught up (all of them if `force`). */
  release(force = false): void {
    while (this.held.length > 0) {
      if (!force && this.news.heardUntil() + NEWS_ALLOWANCE_MS < this.held[0].at) return this.news.behind();
      const { at, action } = this.held.shift()!;
      this.handle(Math.max(at, this.wall.now - this.slackMs(), this.given), action);
    }
  }

  private handle(t: number, action: Action): void {
    const outer = this.handling;
    this.given = t;
    this.handling = t;
    try {
      action(t);
    } finally {
      this.handling = outer;
    }
  }

  stop(): void {
    this.held.length = 0;
    this.wall.stop();
  }
}
