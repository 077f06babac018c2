/** A token bucket: `rate` per second, at most `burst` saved up. */
export class Bucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.at = now;
  }

  take(amount: number, now: number): boolean {
    if (this.wait(amount, now) > 0) return false;
    this.tokens -= amount;
    return true;
  }

  /** Milliseconds until `amount` is saved up (0: it is now); takes nothing. */
  wait(amount: number, now: number): number {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) * this.rate) / 1000);
    this.at = now;
    return this.tokens >= amount ? 0 : ((amount - this.tokens) * 1000) / this.rate;
  }

  /** Whether it has saved up all it may: then it is the same as a new one. */
  full(now: number): boolean {
    return this.wait(this.burst, now) === 0;
  }
}

export interface MeterLimits {
  maxDatagramsPerSecond: number;
  maxBytesPerSecond: number;
  /** Messages the message bucket saves up. */
  burst: number;
  maxMessageBytes: number;
}

/**
 * What one bridge session may send: every message, text or binary, counts once against the message rate
 * and by its length against the byte rate. `admit` returns null or why the message is refused.
 */
export class Meter {
  private readonly messages: Bucket;
  private readonly bytes: Bucket;
  private readonly byteBurst: number;

  constructor(
    private readonly l: MeterLimits,
    now: number,
  ) {
    this.messages = new Bucket(l.maxDatagramsPerSecond, l.burst, now);
    // A second's worth: a measurement's series of 64 KB ping-pongs goes through whole, a flood does not.
    this.byteBurst = Math.max(l.maxMessageBytes, l.maxBytesPerSecond);
    this.bytes = new Bucket(l.maxBytesPerSecond, this.byteBurst, now);
  }

  /**
   * Takes a message of `length` bytes if both buckets have it, else takes nothing and says how long until
   * they will and which limit it waits for. A message larger than the byte bucket holds (a control message
   * under a tiny budget) waits for it to be full and empties it, rather than forever.
   */
  delay(length: number, now: number): { ms: number; limit: string } | null {
    const cost = Math.min(length, this.byteBurst);
    const messages = this.messages.wait(1, now);
    const bytes = this.bytes.wait(cost, now);
    if (messages === 0 && bytes === 0) {
      this.messages.take(1, now);
      this.bytes.take(cost, now);
      return null;
    }
    return messages >= bytes ? { ms: messages, limit: `${this.l.maxDatagramsPerSecond} messages per second` } : { ms: bytes, limit: `${this.l.maxBytesPerSecond} bytes per second` };
  }

  /** Whether both buckets are full: forgetting the meter then changes nothing. */
  rested(now: number): boolean {
    return this.messages.full(now) && this.bytes.full(now);
  }

  admit(length: number, limit: number, now: number): string | null {
    if (length > limit) return `message of ${length} bytes is over the limit of ${limit}`;
    if (!this.messages.take(1, now)) return `over the limit of ${this.l.maxDatagramsPerSecond} datagrams per second`;
    if (!this.bytes.take(length, now)) return `over the limit of ${this.l.maxBytesPerSecond} bytes per second`;
    return null;
  }
}
