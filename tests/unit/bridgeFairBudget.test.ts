import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClientBudgets, withinBudget } from '../../server/bridgeBudget.ts';
import { MAX_TIMED_PENDING_PER_CLIENT, timedSender } from '../../server/bridgeTimed.ts';
import { timedMessage } from '../../shared/bridge/protocol.ts';

// 1,000 messages/s with a burst of 100 (a tenth of a second's, at least 100); 10,000 bytes/s with a second's burst.
const limits = { maxClientDatagramsPerSecond: 1000, maxClientBytesPerSecond: 10_000, maxMessageBytes: 1000 };

describe("a client address's budget, shared by its bridge sessions", () => {
  it('lets a burst of 100 messages through, then one a millisecond as it refills', () => {
    const budgets = new ClientBudgets(limits);
    const meter = budgets.of('127.0.0.1', 0).meter;
    for (let i = 0; i < 100; i++) expect(meter.delay(10, 0)).toBeNull();
    expect(meter.delay(10, 0)).toEqual({ ms: 1, limit: '1000 messages per second' });
    expect(meter.delay(10, 0.5)).toEqual({ ms: 0.5, limit: '1000 messages per second' });
    expect(meter.delay(10, 1)).toBeNull();
    expect(meter.delay(10, 1)).toEqual({ ms: 1, limit: '1000 messages per second' });
    // 50 ms saves up 50 messages, no more
    for (let i = 0; i < 50; i++) expect(meter.delay(10, 51)).toBeNull();
    expect(meter.delay(10, 51)).not.toBeNull();
  });

  it('is one budget for all the sessions of an address, and another for each other address', () => {
    const budgets = new ClientBudgets(limits);
    const first = budgets.of('127.0.0.1', 0);
    for (let i = 0; i < 100; i++) first.meter.delay(10, 0);
    // a second session of the same address finds the budget spent; another address has its own
    expect(budgets.of('127.0.0.1', 0).meter.delay(10, 0)).toEqual({ ms: 1, limit: '1000 messages per second' });
    expect(budgets.of('127.0.0.2', 0).meter.delay(10, 0)).toBeNull();
  });

  it('counts bytes: 10 messages of 1,000 bytes spend a second of bytes, which refill at 10 bytes a millisecond', () => {
    const meter = new ClientBudgets(limits).of('127.0.0.1', 0).meter;
    for (let i = 0; i < 10; i++) expect(meter.delay(1000, 0)).toBeNull();
    expect(meter.delay(1000, 0)).toEqual({ ms: 100, limit: '10000 bytes per second' });
    expect(meter.delay(1000, 60)).toEqual({ ms: 40, limit: '10000 bytes per second' });
    // a refused message takes nothing: the message bucket is not spent by waiting
    expect(meter.delay(1000, 100)).toBeNull();
    expect(meter.delay(1, 100)).toEqual({ ms: 0.1, limit: '10000 bytes per second' });
    // a message larger than a second's bytes waits for a full bucket and empties it
    expect(meter.delay(20_000, 1099)).toEqual({ ms: 1, limit: '10000 bytes per second' });
    expect(meter.delay(20_000, 1100)).toBeNull();
    expect(meter.delay(1, 1100)).toEqual({ ms: 0.1, limit: '10000 bytes per second' });
  });

  it('forgets an address only once it has no session and its budget is full again', () => {
    const budgets = new ClientBudgets(limits);
    budgets.of('127.0.0.1', 0);
    const spent = budgets.of('127.0.0.2', 0).meter;
    for (let i = 0; i < 10; i++) spent.delay(1000, 0);
    budgets.sweep(999, (client) => client === '127.0.0.1');
    expect(budgets.size).toBe(2);
    budgets.sweep(1000, (client) => client === '127.0.0.1');
    expect(budgets.size).toBe(1);
    budgets.sweep(1000, () => false);
    expect(budgets.size).toBe(0);
  });
});

describe('messages over the budget', () => {
  afterEach(() => vi.useRealTimers());

  it('wait in order with the page paused, and go as the budget refills; the page is told once a second', () => {
    vi.useFakeTimers();
    let now = 0;
    const meter = new ClientBudgets(limits).of('127.0.0.1', 0).meter;
    const passed: number[] = [];
    const events: string[] = [];
    const page = { pause: () => events.push('pause'), resume: () => events.push('resume'), told: (limit: string) => events.push(limit) };
    const budget = withinBudget(
      meter,
      () => now,
      page,
      (bytes) => passed.push(bytes[0]),
    );
    for (let i = 0; i < 103; i++) budget.take(Buffer.from([i]), false);
    expect(passed).toHaveLength(100);
    expect(events).toEqual(['pause', '1000 messages per second']);
    now = 1;
    vi.advanceTimersByTime(1);
    expect(passed).toEqual(Array.from({ length: 101 }, (_, i) => i));
    // what arrives while others wait goes after them
    budget.take(Buffer.from([200]), false);
    now = 3;
    vi.advanceTimersByTime(2);
    expect(passed.slice(100)).toEqual([100, 101, 102]);
    now = 4;
    vi.advanceTimersByTime(1);
    expect(passed.slice(100)).toEqual([100, 101, 102, 200]);
    expect(events).toEqual(['pause', '1000 messages per second', 'resume']);
    budget.close();
  });
});

describe("an address's timed sessions", () => {
  it(`park at most ${MAX_TIMED_PENDING_PER_CLIENT} datagrams together, and get the room back as a session closes`, () => {
    const now = 1000;
    const pool = { pending: 0, bytes: 0 };
    const sessions = Array.from({ length: 5 }, () =>
      timedSender(
        () => now,
        () => {},
        pool,
      ),
    );
    const later = () => Buffer.from(timedMessage(now + 1500, new Uint8Array(10)));
    // four sessions park their own most (MAX_TIMED_PENDING each): the address's most
    for (let i = 0; i < MAX_TIMED_PENDING_PER_CLIENT; i++) expect(sessions[i % 4].push(later(), i + 1)).toBeNull();
    expect(pool).toEqual({ pending: MAX_TIMED_PENDING_PER_CLIENT, bytes: 10 * MAX_TIMED_PENDING_PER_CLIENT });
    expect(sessions[4].push(later(), 1)).toBe(`more than ${MAX_TIMED_PENDING_PER_CLIENT} timed messages of this address's sessions waiting`);
    // one due now goes at once, parked or not
    expect(sessions[4].push(Buffer.from(timedMessage(now, new Uint8Array(10))), 2)).toBeNull();
    sessions[0].close();
    expect(pool).toEqual({ pending: (MAX_TIMED_PENDING_PER_CLIENT * 3) / 4, bytes: (10 * MAX_TIMED_PENDING_PER_CLIENT * 3) / 4 });
    expect(sessions[4].push(later(), 3)).toBeNull();
    for (const s of sessions) s.close();
    expect(pool).toEqual({ pending: 0, bytes: 0 });
  });
});
