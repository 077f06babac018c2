import type { Timer } from '../sim/scheduler.ts';

/**
 * Spaces sends at a controller's pacing rate (packets per second; Infinity sends at once). One pacer
 * serves every sender: the window senders and both offset fetchers.
 */
export class Pacer {
  private nextAt = 0;

  /** `wake` is set for the moment a held send may go. */
  constructor(private readonly wake: Timer) {}

  /** The first send may go no earlier than `t`. */
  startAt(t: number): void {
    this.nextAt = t;
  }

  /**
   * Whether a send at `now` must wait for its turn (the wake timer is then set); when it may go, books
   * its slot and the next one a gap of 1000 / rate ms later.
   */
  hold(now: number, rate: number): boolean {
    return rate !== Infinity && this.paced(now, rate);
  }

  private paced(now: number, rate: number): boolean {
    if (now < this.nextAt) {
      this.wake.set(this.nextAt);
      return true;
    }
    this.nextAt = Math.max(now, this.nextAt) + 1000 / rate;
    return false;
  }

  /**
   * Whether the round after one of `n` sends that began at `start` must wait for its turn, at the same
   * rate per send (the wake timer is then set).
   */
  holdRound(now: number, start: number, n: number, rate: number): boolean {
    if (rate === Infinity) return false;
    const next = start + (n * 1000) / rate;
    if (next <= now) return false;
    this.wake.set(next);
    return true;
  }

  cancel(): void {
    this.wake.cancel();
  }
}
