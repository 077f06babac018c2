import { atLeastOne, BaseController, choice, num, type Ack, type Scheme } from './types.ts';

export type Decrease = 'multiplicative' | 'sqrt' | 'quartic';

/** The decrease rules the AIMD family offers, shared with schemes that borrow one. */
export function decreased(w: number, rule: Decrease, b: number): number {
  switch (rule) {
    case 'multiplicative':
      return atLeastOne(w * b);
    case 'sqrt':
      return atLeastOne(Math.sqrt(w));
    case 'quartic':
      return atLeastOne(Math.pow(w, 0.25));
  }
}

/**
 * Additive increase per ACK; on a timeout — the sender's timer, or an ACK that comes back later than
 * the timeout, meaning its packet timed out — a decrease, at most once per window of packets.
 */
class Aimd extends BaseController {
  private w = 1;
  private decreasedAt = -Infinity;

  constructor(
    private readonly a: number,
    private readonly perWindowSquared: boolean,
    private readonly rule: Decrease,
    private readonly b: number,
    private readonly timeout: number,
  ) {
    super();
  }

  windowSize(): number {
    return this.w;
  }

  onAck(ack: Ack): void {
    if (ack.now - ack.sentAt > this.timeout) {
      if (ack.sentAt >= this.decreasedAt) this.decrease(ack.now);
      return;
    }
    this.w += this.perWindowSquared ? this.a / (this.w * this.w) : this.a / this.w;
  }

  onTimeout(now: number): void {
    this.decrease(now);
  }

  timeoutMs(): number {
    return this.timeout;
  }

  private decrease(now: number): void {
    this.w = decreased(this.w, this.rule, this.b);
    this.decreasedAt = now;
  }
}

export const aimd: Scheme = {
  id: 'aimd',
  title: 'AIMD',
  doc: 'Additive increase each ACK, multiplicative (or root) decrease when a packet times out.',
  mode: 'window',
  params: [
    num('a', 'packets', 0.1, 10, 0.1, 1, 'Additive increase per window of ACKs'),
    choice('increase', ['a/w', 'a/w2'], 'a/w', 'Increase per ACK: a/w (≈ a per RTT) or a/w² (slower)'),
    choice('decrease', ['multiplicative', 'sqrt', 'quartic'], 'multiplicative', 'On timeout: w·b, √w or w^¼'),
    num('b', '', 0.05, 0.95, 0.05, 0.5, 'Multiplicative decrease factor'),
    num('timeout', 'ms', 20, 1000, 10, 1000, 'A packet not ACKed within this long counts as lost'),
  ],
  create: (p) => new Aimd(p.a as number, p.increase === 'a/w2', p.decrease as Decrease, p.b as number, p.timeout as number),
};
