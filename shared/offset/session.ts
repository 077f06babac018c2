import type { Rng } from '../sim/rng.ts';
import type { OffsetPolicyConfig } from './policy.ts';

/** One client's state on the offset server. Every time is a whole-millisecond reading. */
export interface Session {
  start: number;
  lastSeen: number;
  tokens: number;
  /** A reply has actually been sent: until then each data request sets the bucket instead of adding. */
  replied: boolean;
  lastReplyAt: number;
  lastRequestAt: number;
  penalty: number;
  /** Bytes of the file sent in replies (a chunk sent twice counts twice). */
  servedBytes: number;
  /** Submits counted as ranked so far (offset/policy.ts RANKED_SUBMITS). */
  rankedSubmits: number;
  /** The id of its first ranked Submit: the only id the session ranks under. */
  rankedId: string | null;
  /** Token-less requests since the last squish began; it keeps growing while squished. */
  runningCount: number;
  squishLeft: number;
  squishes: number;
  /** Variable rate, course model: the rate in force outside a squish, and when it may next flip. */
  rate: number;
  phase: number;
  nextSwitchAt: number;
  /** This session's own loss draws. */
  rng: Rng;
  /** The policy it runs under: the server's, or one the session was allowed to ask for. */
  config: OffsetPolicyConfig;
}

export function newSession(c: OffsetPolicyConfig, now: number, rng: Rng): Session {
  return {
    start: now,
    lastSeen: now,
    tokens: 0,
    replied: false,
    lastReplyAt: now,
    lastRequestAt: now,
    penalty: 0,
    servedBytes: 0,
    rankedSubmits: 0,
    rankedId: null,
    runningCount: 0,
    squishLeft: 0,
    squishes: 0,
    rate: c.variable ? c.initialRate : c.rate,
    phase: 0,
    nextSwitchAt: now + c.firstMs,
    rng,
    config: c,
  };
}

/** The clean variable schedule: `initialRate` for `firstMs`, then `rates` in turn, each for `periodMs`. */
export function scheduledRate(c: OffsetPolicyConfig, sinceStart: number): number {
  if (sinceStart < c.firstMs) return c.initialRate;
  return c.rates[Math.floor((sinceStart - c.firstMs) / c.periodMs) % c.rates.length];
}

/** The token rate a data request at `now` refills at. */
export function rateInForce(c: OffsetPolicyConfig, s: Session, now: number): number {
  if (s.squishLeft > 0) return c.squishedRate;
  if (!c.variable) return c.rate;
  return c.variableModel === 'schedule' ? scheduledRate(c, now - s.start) : s.rate;
}

/**
 * The course server's lazy phase flip: it happens only inside a data request that found a token while
 * not squished, after that request's refill (which used the old rate). The next flip is a period later.
 */
export function maybeSwitchPhase(c: OffsetPolicyConfig, s: Session, now: number): void {
  if (!c.variable || c.variableModel !== 'course' || now < s.nextSwitchAt) return;
  s.rate = c.rates[s.phase % c.rates.length];
  s.phase++;
  s.nextSwitchAt = now + c.periodMs;
}

/**
 * Adds the tokens a data request earns. The course server's whole-token arithmetic: until a reply is
 * sent, the bucket is set to what the time since the session began is worth; after that, whole tokens
 * for the time since the last reply are added, so requests closer than 1/rate apart waste the fraction.
 */
export function refill(c: OffsetPolicyConfig, s: Session, now: number): void {
  const perMs = rateInForce(c, s, now) / 1000;
  if (c.idealBucket) {
    s.tokens = Math.min(c.bucket, s.tokens + (now - s.lastRequestAt) * perMs);
  } else if (!s.replied) {
    s.tokens = Math.floor(Math.min((now - s.start) * perMs, c.bucket));
  } else {
    s.tokens += Math.floor(Math.min((now - s.lastReplyAt) * perMs, c.bucket - s.tokens));
  }
  s.lastRequestAt = now;
}
