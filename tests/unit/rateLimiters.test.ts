import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Meter, type MeterLimits } from '../../server/bridgeMeter.ts';
import { ReplyBudget } from '../../server/offsetAdmission.ts';
import { Pacer } from '../../shared/endpoints/pacer.ts';
import { generateFile } from '../../shared/offset/file.ts';
import { DEFAULT_POLICY, OffsetPolicy, type OffsetPolicyConfig } from '../../shared/offset/policy.ts';
import { encodeDataRequest, encodeSizeRequest } from '../../shared/offset/protocol.ts';
import type { Timer } from '../../shared/sim/scheduler.ts';
import { Rng } from '../../shared/sim/rng.ts';
import { throttledWriter } from '../../web/app/throttle.ts';
import { RUNS } from '../property/arbitraries.ts';

/**
 * Every rate limiter of the project on a clock the test moves: the bridge's meter, the offset server's
 * token bucket and its per-address reply budget, the senders' pacer and the page's URL writer. Each is checked away from its defaults:
 * the burst it allows at once, and what it allows again after a given time.
 */

describe('the bridge meter (a token bucket per session for messages and for bytes)', () => {
  const limits = (l: Partial<MeterLimits>): MeterLimits => ({ maxDatagramsPerSecond: 1000, maxBytesPerSecond: 1e9, burst: 100, maxMessageBytes: 65_507, ...l });

  it('admits the burst at once, then as many messages as the rate earned since: Δ·rate/1000, capped at the burst', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 5000 }), (rate, burst, waitMs) => {
        const m = new Meter(limits({ maxDatagramsPerSecond: rate, burst }), 1000);
        let admitted = 0;
        while (admitted <= burst && m.admit(10, 100, 1000) === null) admitted++;
        expect(admitted).toBe(burst);
        expect(m.admit(10, 100, 1000)).toBe(`over the limit of ${rate} datagrams per second`);
        let again = 0;
        while (again <= burst && m.admit(10, 100, 1000 + waitMs) === null) again++;
        expect(again).toBe(Math.min(burst, Math.floor((waitMs * rate) / 1000)));
      }),
      RUNS,
    );
  });

  it('counts bytes by the same arithmetic, a second of the byte rate (or one largest message) saved up', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 1_000_000 }), fc.integer({ min: 1, max: 999 }), (bytesPerSecond, waitMs) => {
        const m = new Meter(limits({ maxBytesPerSecond: bytesPerSecond, burst: 1e9, maxDatagramsPerSecond: 1e9, maxMessageBytes: 100 }), 0);
        expect(m.admit(bytesPerSecond, Infinity, 0)).toBeNull();
        expect(m.admit(1, Infinity, 0)).toBe(`over the limit of ${bytesPerSecond} bytes per second`);
        const earned = Math.floor((waitMs * bytesPerSecond) / 1000);
        if (earned >= 1) expect(m.admit(earned, Infinity, waitMs)).toBeNull();
        expect(m.admit(1, Infinity, waitMs)).not.toBeNull();
      }),
      RUNS,
    );
  });

  it('refuses a message over the size limit before it costs anything', () => {
    const m = new Meter(limits({ burst: 1 }), 0);
    expect(m.admit(101, 100, 0)).toBe('message of 101 bytes is over the limit of 100');
    expect(m.admit(100, 100, 0)).toBeNull();
  });
});

describe("the offset server's token bucket", () => {
  const FILE = generateFile(5000, 2);

  /** The course server's whole-token arithmetic, as its source reads, for a client that asks at the given times. */
  function courseModel(c: OffsetPolicyConfig) {
    let tokens = 0;
    let replied = false;
    let lastReply = 0;
    return (t: number): boolean => {
      const perMs = c.rate / 1000;
      if (!replied) tokens = Math.floor(Math.min(t * perMs, c.bucket));
      else tokens += Math.floor(Math.min((t - lastReply) * perMs, c.bucket - tokens));
      if (tokens < 1) return false;
      tokens -= 1;
      replied = true;
      lastReply = t;
      return true;
    };
  }

  /** Request times from the gaps between them. */
  const requestTimes = fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 80 }).map((gaps) => {
    let t = 0;
    return gaps.map((g) => (t += g));
  });

  it('serves a request exactly when the whole tokens earned since the last reply (at most the bucket) cover it, for every rate and bucket', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 100_000 }), requestTimes, (rate, bucket, times) => {
        // No squish: these runs show the bucket alone.
        const config = { ...DEFAULT_POLICY, loss: 0, rate, bucket, squishThreshold: 1e9 };
        const p = new OffsetPolicy(config, FILE, new Rng(1));
        p.handle('c', encodeSizeRequest(), 0);
        const model = courseModel(config);
        for (const t of times) expect(p.handle('c', encodeDataRequest(0, 100), t).outcome).toBe(model(t) ? 'served' : 'no-token');
      }),
      RUNS,
    );
  });

  it('the ideal bucket earns rate·Δ/1000 continuously, capped at the bucket', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 100_000 }), requestTimes, (rate, bucket, times) => {
        const config = { ...DEFAULT_POLICY, loss: 0, rate, bucket, squishThreshold: 1e9, idealBucket: true };
        const p = new OffsetPolicy(config, FILE, new Rng(1));
        p.handle('c', encodeSizeRequest(), 0);
        let [tokens, last] = [0, 0];
        for (const t of times) {
          tokens = Math.min(bucket, tokens + ((t - last) * rate) / 1000);
          last = t;
          const served = tokens >= 1;
          if (served) tokens -= 1;
          expect(p.handle('c', encodeDataRequest(0, 100), t).outcome).toBe(served ? 'served' : 'no-token');
        }
      }),
      RUNS,
    );
  });
});

describe("the offset server's reply budget per source address", () => {
  it('answers again exactly once the debt of the last reply is paid back at the rate, for every rate', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 0, max: 10_000 }), (rate, debt, waitMs) => {
        const b = new ReplyBudget(rate);
        b.spend('a', rate + debt, 1000); // a second's budget and `debt` more
        expect(b.allows('a', 1000)).toBe(false);
        expect(b.allows('a', 1000 + waitMs)).toBe(waitMs * rate > debt * 1000);
        expect(b.allows('b', 1000)).toBe(true);
      }),
      RUNS,
    );
  });
});

describe("the senders' pacer", () => {
  /** A wake timer that only remembers when it was set for. */
  const wakeAt = () => {
    const w = { at: Number.NaN, set: (at: number) => (w.at = at), cancel: () => (w.at = Number.NaN) };
    return w;
  };

  it('lets sends go 1000/rate ms apart and holds one asked for early until its turn, for every rate', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 1e6, noNaN: true }), fc.array(fc.double({ min: 0, max: 3, noNaN: true }), { maxLength: 60 }), (rate, fractions) => {
        const wake = wakeAt();
        const pacer = new Pacer(wake as unknown as Timer);
        const gap = 1000 / rate;
        let now = 0;
        let nextAt = 0;
        for (const f of fractions) {
          now += f * gap;
          const held = pacer.hold(now, rate);
          expect(held).toBe(now < nextAt);
          if (held) expect(wake.at).toBe(nextAt);
          else nextAt = Math.max(now, nextAt) + gap;
        }
      }),
      RUNS,
    );
  });

  it('holds a round of n sends until n/rate s after the last began', () => {
    const wake = wakeAt();
    const pacer = new Pacer(wake as unknown as Timer);
    expect(pacer.holdRound(100, 0, 5, 40)).toBe(true); // 5 at 40/s: 125 ms
    expect(wake.at).toBe(125);
    expect(pacer.holdRound(125, 0, 5, 40)).toBe(false);
    expect(pacer.hold(0, Infinity)).toBe(false);
  });
});

describe("the page's URL writer", () => {
  afterEach(() => vi.useRealTimers());

  it('writes the first value at once, then at most one every everyMs: the last of a drag when its spell ends', () => {
    vi.useFakeTimers();
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2000 }), fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 40 }), (every, gaps) => {
        vi.clearAllTimers();
        const writes: { at: number; value: string }[] = [];
        const start = Date.now();
        const w = throttledWriter((value) => writes.push({ at: Date.now() - start, value }), every);
        gaps.forEach((g, i) => {
          vi.advanceTimersByTime(g);
          w.write(String(i));
        });
        vi.advanceTimersByTime(every * 2);
        expect(writes[0]).toEqual({ at: gaps[0], value: '0' });
        for (let i = 1; i < writes.length; i++) expect(writes[i].at - writes[i - 1].at).toBeGreaterThanOrEqual(every);
        expect(writes.at(-1)!.value).toBe(String(gaps.length - 1));
      }),
      { ...RUNS, numRuns: 40 },
    );
  });

  it('writes no value twice in a row, and a flush writes the waiting one at once', () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const w = throttledWriter((value) => writes.push(value), 300);
    w.write('a');
    vi.advanceTimersByTime(400);
    w.write('a');
    w.write('b');
    expect(writes).toEqual(['a']);
    w.flush();
    expect(writes).toEqual(['a', 'b']);
    vi.advanceTimersByTime(1000);
    expect(writes).toEqual(['a', 'b']);
  });
});
