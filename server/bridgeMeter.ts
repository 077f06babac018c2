/** A token bucket: `rate` per second, at most `burst` saved up. */
class Bucket {
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
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) * this.rate) / 1000);
    this.at = now;
    if (this.tokens < amount) return false;
    this.tokens -= amount;
    return true;
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

  constructor(
    private readonly l: MeterLimits,
    now: number,
  ) {
    this.messages = new Bucket(l.maxDatagramsPerSecond, l.burst, now);
    // A second's worth: a measurement's series of 64 KB ping-pongs goes through whole, a flood does not.
    this.bytes = new Bucket(l.maxBytesPerSecond, Math.max(l.maxMessageBytes, l.maxBytesPerSecond), now);
  }

  admit(length: number, limit: number, now: number): string | null {
    if (length > limit) return `message of ${length} bytes is over the limit of ${limit}`;
    if (!this.messages.take(1, now)) return `over the limit of ${this.l.maxDatagramsPerSecond} datagrams per second`;
    if (!this.bytes.take(length, now)) return `over the limit of ${this.l.maxBytesPerSecond} bytes per second`;
    return null;
  }
}
