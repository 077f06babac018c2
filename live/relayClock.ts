import type { Action, Clock } from '../shared/sim/scheduler.ts';
import type { WallClock } from './wallClock.ts';

/**
 * The model's Clock on the relay's time, for a controller whose datagrams the relay sends. Its `now` is
 * the relay's clock as estimated here; an action due at T runs `leadMs` before T here and is handed T, so
 * the datagrams it sends reach the relay ahead of time and leave at T exactly. The hop to the relay
 * (and this side's timer jitter, up to the lead) never enters the controller's view.
 */
export class RelayClock implements Clock {
  constructor(
    private readonly wall: WallClock,
    /** Relay time minus this side's wall clock. */
    private readonly offset: number,
    private readonly leadMs: number,
  ) {}

  get now(): number {
    return this.wall.now + this.offset;
  }

  at(at: number, action: Action): void {
    this.wall.at(at - this.offset - this.leadMs, () => action(Math.max(at, this.now)));
  }

  stop(): void {
    this.wall.stop();
  }
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
