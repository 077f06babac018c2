import type { Rng } from '../sim/rng.ts';
import { md5Hex } from './md5.ts';
import { encodeDataReply, encodeError, encodeResult, encodeSizeReply, parseRequest } from './protocol.ts';

/** Every number of the offset server's policy; defaults are the course server's. */
export interface OffsetPolicyConfig {
  /** Tokens per second. */
  rate: number;
  squishedRate: number;
  bucket: number;
  /** Probability that a request which found a token is dropped. */
  loss: number;
  /** Token-less requests (since the last squish began) beyond which the client is squished. */
  squishThreshold: number;
  /** Requests that find a token while squished. */
  squishLength: number;
  /** Variable-rate mode: `initialRate` for `firstMs`, then `rates` in turn, each for `periodMs`. */
  variable: boolean;
  initialRate: number;
  firstMs: number;
  periodMs: number;
  rates: number[];
  /** A continuous bucket instead of the course server's whole-token arithmetic. */
  idealBucket: boolean;
}

export const DEFAULT_POLICY: OffsetPolicyConfig = {
  rate: 250,
  squishedRate: 62,
  bucket: 10,
  loss: 0.11,
  squishThreshold: 100,
  squishLength: 100,
  variable: false,
  initialRate: 250,
  firstMs: 2000,
  periodMs: 2000,
  rates: [125, 1000],
  idealBucket: false,
};

export type Outcome = 'size' | 'served' | 'lost' | 'no-token' | 'result' | 'error';

export interface Decision {
  /** The datagram to send back, or null for silence. */
  reply: Uint8Array | null;
  outcome: Outcome;
  /** Offset of a data request (served, lost or refused). */
  offset: number;
  squished: boolean;
  /** The client was squished (1) or released (-1) by this request; 0 otherwise. */
  squishChange: -1 | 0 | 1;
  penalty: number;
}

interface Session {
  start: number;
  lastSeen: number;
  tokens: number;
  sawData: boolean;
  lastReplyAt: number;
  lastRequestAt: number;
  penalty: number;
  penaltySinceSquish: number;
  squishLeft: number;
  squishes: number;
}

/**
 * The offset server's policy as a state machine: (client key, datagram, time) → reply or silence.
 * It knows nothing of sockets, so the real UDP server and the simulated one run the same code.
 */
export class OffsetPolicy {
  readonly md5: string;
  private readonly sessions = new Map<string, Session>();

  constructor(readonly config: OffsetPolicyConfig, readonly file: Uint8Array, private readonly rng: Rng) {
    this.md5 = md5Hex(file);
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  session(key: string): Readonly<Session> | undefined {
    return this.sessions.get(key);
  }

  /** The token rate in force for a session at `now`. */
  rateAt(s: Session, now: number): number {
    const c = this.config;
    if (s.squishLeft > 0) return c.squishedRate;
    if (!c.variable) return c.rate;
    const t = now - s.start;
    if (t < c.firstMs) return c.initialRate;
    return c.rates[Math.floor((t - c.firstMs) / c.periodMs) % c.rates.length];
  }

  handle(key: string, datagram: Uint8Array, now: number): Decision {
    const request = parseRequest(datagram, this.file.length);
    if (request.kind === 'error') {
      const penalty = this.sessions.get(key)?.penalty ?? 0;
      return { reply: encodeError(request.message), outcome: 'error', offset: -1, squished: false, squishChange: 0, penalty };
    }
    let s = this.sessions.get(key);
    const fresh = (): Session => {
      const n = newSession(now);
      this.sessions.set(key, n);
      return n;
    };
    if (request.kind === 'size' && request.reset) s = fresh();
    s ??= fresh();
    s.lastSeen = now;
    const decide = (reply: Uint8Array | null, outcome: Outcome, offset = -1, squishChange: -1 | 0 | 1 = 0): Decision => ({
      reply,
      outcome,
      offset,
      squished: s!.squishLeft > 0,
      squishChange,
      penalty: s!.penalty,
    });
    switch (request.kind) {
      case 'size':
        return decide(encodeSizeReply(this.file.length), 'size');
      case 'submit':
        return decide(encodeResult(request.md5 === this.md5, Math.round(now - s.start), s.penalty), 'result');
      case 'data':
        return this.data(s, request.offset, request.numBytes, now, decide);
    }
  }

  private data(
    s: Session,
    offset: number,
    numBytes: number,
    now: number,
    decide: (reply: Uint8Array | null, outcome: Outcome, offset?: number, squishChange?: -1 | 0 | 1) => Decision,
  ): Decision {
    this.refill(s, now);
    if (s.tokens < 1) {
      s.penalty++;
      s.penaltySinceSquish++;
      if (s.penaltySinceSquish > this.config.squishThreshold) {
        s.penaltySinceSquish = 0;
        s.squishLeft = this.config.squishLength;
        s.squishes++;
        return decide(null, 'no-token', offset, 1);
      }
      return decide(null, 'no-token', offset);
    }
    const squished = s.squishLeft > 0;
    let released = false;
    if (squished && --s.squishLeft === 0) released = true;
    if (this.rng.chance(this.config.loss)) return decide(null, 'lost', offset, released ? -1 : 0);
    s.tokens -= 1;
    s.lastReplyAt = now;
    const body = this.file.subarray(offset, Math.min(offset + numBytes, this.file.length));
    const d = decide(encodeDataReply(offset, body, squished), 'served', offset, released ? -1 : 0);
    d.squished = squished;
    return d;
  }

  /**
   * The course server's refill: the first data request gets the tokens accrued since the session began;
   * later ones add whole tokens for the time since the last reply actually sent, so requests closer than
   * 1/rate apart waste the fraction.
   */
  private refill(s: Session, now: number): void {
    const c = this.config;
    const perMs = this.rateAt(s, now) / 1000;
    if (c.idealBucket) {
      s.tokens = Math.min(c.bucket, s.tokens + (now - (s.sawData ? s.lastRequestAt : s.start)) * perMs);
    } else if (!s.sawData) {
      s.tokens = Math.floor(Math.min((now - s.start) * perMs, c.bucket));
    } else {
      const since = s.lastReplyAt >= 0 ? s.lastReplyAt : s.start;
      s.tokens += Math.floor(Math.min((now - since) * perMs, c.bucket - s.tokens));
    }
    s.sawData = true;
    s.lastRequestAt = now;
  }

  /** Forgets sessions not heard from for `idleMs`; returns how many. */
  reclaim(now: number, idleMs: number): number {
    let n = 0;
    for (const [key, s] of this.sessions) {
      if (now - s.lastSeen > idleMs) {
        this.sessions.delete(key);
        n++;
      }
    }
    return n;
  }
}

function newSession(now: number): Session {
  return {
    start: now,
    lastSeen: now,
    tokens: 0,
    sawData: false,
    lastReplyAt: -1,
    lastRequestAt: now,
    penalty: 0,
    penaltySinceSquish: 0,
    squishLeft: 0,
    squishes: 0,
  };
}
