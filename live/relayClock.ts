import type { Action, Clock } from '../shared/sim/scheduler.ts';
import type { WallClock } from './wallClock.ts';

/** Longest an action waits for the relay's news to catch up before it runs anyway. */
export const MAX_HOLD_MS = 200;
/** The hop back from the relay allowed for on top of the head start: news this fresh counts as caught up. */
export const HOP_ALLOWANCE_MS = 3;

/** What this side has heard from the relay: every frame it stamped up to `heardUntil()` has come. */
export interface RelayNews {
  heardUntil(): number;
  /** The news is behind an action: ask the relay for a fresh stamp (a ping). */
  behind(): void;
}

const ALWAYS_CURRENT: RelayNews = { heardUntil: () => Number.POSITIVE_INFINITY, behind: () => {} };

/**
 * The model's Clock on the relay's time, for a controller whose datagrams the relay sends. Its `now` is
 * the relay's clock as estimated here; an action due at T runs `leadMs` before T here and is handed T, so
 * the datagrams it sends reach the relay ahead of time and leave at T exactly. The hop to the relay
 * (and this side's timer jitter, up to the lead) never enters the controller's view.
 *
 * Deciding at T presumes this side has heard what the relay heard until shortly before T. When the hop is
 * backed up (a busy machine), the action waits until the news catches up (or MAX_HOLD_MS), and is handed a
 * time no later than the news: otherwise a reply still on its way would look lost to a controller's
 * timeout, which on the relay's own path it never was.
 */
export class RelayClock implements Clock {
  private readonly held: { at: number; action: Action }[] = [];

  constructor(
    private readonly wall: WallClock,
    /** Relay time minus this side's wall clock. */
    private readonly offset: number,
    /** The head start; it may grow during a run, as stalls here show how much is needed. */
    public leadMs: number,
    /** What this side has heard from the relay (set once the session's frames are wired to it). */
    public news: RelayNews = ALWAYS_CURRENT,
  ) {}

  get now(): number {
    return this.wall.now + this.offset;
  }

  at(at: number, action: Action): void {
    this.wall.at(at - this.offset - this.leadMs, () => {
      this.held.push({ at, action });
      if (this.held.length === 1) this.wall.at(this.wall.now + MAX_HOLD_MS, () => this.release(true));
      this.release(false);
    });
  }

  /** Runs the held actions, in order, as far as the news has caught up (all of them if `force`). */
  release(force = false): void {
    while (this.held.length > 0) {
      const { at, action } = this.held[0];
      const current = this.news.heardUntil() + this.leadMs + HOP_ALLOWANCE_MS;
      if (!force && current < at) return this.news.behind();
      this.held.shift();
      action(Math.max(at, force ? this.now : Math.min(this.now, current)));
    }
  }

  stop(): void {
    this.held.length = 0;
    this.wall.stop();
  }
}

/**
 * The largest head start. The controller decides this early, before the replies of that span are in, so
 * a head start near a controller's loss timeout (the token pacer's shortest is 15 ms) makes answered
 * requests look lost; this keeps well under it.
 */
export const MAX_LEAD_MS = 10;

/**
 * The head start that covers the hop and this side's event loop: twice the median ping's round trip
 * (the first pings also pay for a fresh worker's first compiles), at least `floorMs`, at most MAX_LEAD_MS.
 */
export function leadFromPings(samples: readonly ClockSample[], floorMs: number): number {
  const rtts = samples.map((s) => s.answeredAt - s.sentAt).sort((a, b) => a - b);
  const median = rtts.length === 0 ? 0 : rtts[Math.floor(rtts.length / 2)];
  return Math.min(MAX_LEAD_MS, Math.max(floorMs, Math.ceil(2 * median)));
}

/**
 * The head start after a datagram handed over ahead of time reached the relay `lateByMs` after its send
 * time: enough to have covered that stall, with a quarter to spare, within MAX_LEAD_MS.
 */
export function leadAfterStall(leadMs: number, lateByMs: number): number {
  return Math.min(MAX_LEAD_MS, Math.max(leadMs, Math.ceil((leadMs + lateByMs) * 1.25)));
}

/** A ping slower than this shows this side (or the hop) still busy with something else. */
export const SETTLED_RTT_MS = 3;

/** Whether the last `count` pings all came back within SETTLED_RTT_MS. */
export function settled(samples: readonly ClockSample[], count: number): boolean {
  return samples.length >= count && samples.slice(-count).every((s) => s.answeredAt - s.sentAt <= SETTLED_RTT_MS);
}

/** One ping through the relay: sent and answered on this side's clock, and the relay's clock in between. */
export interface ClockSample {
  sentAt: number;
  relayTime: number;
  answeredAt: number;
}

/**
 * Relay time minus local time, from the ping that came back fastest (its midpoint is the least blurred
 * by queueing on the way), as NTP picks its best sample.
 */
export function relayOffset(samples: readonly ClockSample[]): number {
  if (samples.length === 0) throw new Error('no clock samples from the relay');
  let best = samples[0];
  for (const s of samples) if (s.answeredAt - s.sentAt < best.answeredAt - best.sentAt) best = s;
  return best.relayTime - (best.sentAt + best.answeredAt) / 2;
}
