import { Meter } from './bridgeMeter.ts';
import type { TimedPool } from './bridgeTimed.ts';

export interface ClientLimits {
  /** Messages per second all of one address's sessions may send together, text or binary. */
  maxClientDatagramsPerSecond: number;
  maxClientBytesPerSecond: number;
  maxMessageBytes: number;
}

/** What one client address's bridge sessions share: a meter of what they send and the timed datagrams they park. */
export interface ClientBudget {
  meter: Meter;
  timed: TimedPool;
}

/**
 * Every address's budget. A session's own meter bounds one page; this bounds the sum, so that an address
 * holding many sessions cannot send many times what one page may and take the relay from the others.
 */
export class ClientBudgets {
  private readonly byClient = new Map<string, ClientBudget>();

  constructor(private readonly l: ClientLimits) {}

  /** The budget of `client`'s sessions, made full as its first session opens. */
  of(client: string, now: number): ClientBudget {
    let budget = this.byClient.get(client);
    if (!budget) {
      const { maxClientDatagramsPerSecond: rate, maxClientBytesPerSecond: bytes, maxMessageBytes } = this.l;
      // A tenth of a second's messages at once (as a session's burst), a second's bytes (a 64 KB ping-pong series).
      const meter = new Meter({ maxDatagramsPerSecond: rate, maxBytesPerSecond: bytes, burst: Math.max(100, rate / 10), maxMessageBytes }, now);
      budget = { meter, timed: { pending: 0, bytes: 0 } };
      this.byClient.set(client, budget);
    }
    return budget;
  }

  /**
   * Forgets the budgets of addresses without a session that have saved up all they may: a new one would be
   * the same. One kept until then means closing and reopening sessions does not refill it.
   */
  sweep(now: number, hasSessions: (client: string) => boolean): void {
    for (const [client, budget] of this.byClient) if (!hasSessions(client) && budget.meter.rested(now)) this.byClient.delete(client);
  }

  get size(): number {
    return this.byClient.size;
  }
}

interface Held {
  bytes: Buffer;
  isBinary: boolean;
}

/**
 * Passes a session's messages on while its address's budget has room; past it the session's messages wait
 * in order (the page is paused, so only what was already read waits here) until the budget refills. The page
 * is told once a second that it waits, and why.
 */
export function withinBudget(
  meter: Meter,
  now: () => number,
  page: { pause(): void; resume(): void; told(limit: string): void },
  pass: (bytes: Buffer, isBinary: boolean) => void,
): { take(bytes: Buffer, isBinary: boolean): void; close(): void } {
  const held: Held[] = [];
  let timer: NodeJS.Timeout | null = null;
  let toldAt = Number.NEGATIVE_INFINITY;
  const wait = (over: { ms: number; limit: string }) => {
    timer = setTimeout(drain, Math.ceil(over.ms));
    if (now() - toldAt < 1000) return;
    toldAt = now();
    page.told(over.limit);
  };
  const drain = () => {
    timer = null;
    while (held.length > 0) {
      const over = meter.delay(held[0].bytes.length, now());
      if (over) return wait(over);
      const m = held.shift()!;
      pass(m.bytes, m.isBinary);
    }
    page.resume();
  };
  return {
    take(bytes, isBinary) {
      if (held.length > 0) return void held.push({ bytes, isBinary });
      const over = meter.delay(bytes.length, now());
      if (!over) return pass(bytes, isBinary);
      held.push({ bytes, isBinary });
      page.pause();
      wait(over);
    },
    close() {
      if (timer) clearTimeout(timer);
      timer = null;
      held.length = 0;
    },
  };
}
