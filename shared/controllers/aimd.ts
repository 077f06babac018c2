import { atLeastOne, BaseController, choice, defineScheme, lossParam, num, OncePerWindow, type Ack } from './types.ts';

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
 * Additive increase per ACK; a decrease when the sender's timer fires (no ACK for the timeout), and —
 * only with loss detection on — when the sender infers a loss, at most once per window of packets.
 */
class Aimd extends BaseController {
  private w = 1;
  private readonly episode = new OncePerWindow();

  constructor(
    private readonly a: number,
    private readonly perWindowSquared: boolean,
    private readonly rule: Decrease,
    private readonly b: number,
    private readonly timeout: number,
    private readonly detectLoss: boolean,
  ) {
    super();
  }

  windowSize(): number {
    return this.w;
  }

  onSend(seq: number): void {
    this.episode.sent(seq);
  }

  onAck(_ack: Ack): void {
    this.w += this.perWindowSquared ? this.a / (this.w * this.w) : this.a / this.w;
  }

  onLoss(_now: number, seq: number): void {
    if (this.detectLoss && this.episode.fresh(seq)) this.w = decreased(this.w, this.rule, this.b);
  }

  onTimeout(): void {
    this.w = decreased(this.w, this.rule, this.b);
    this.episode.reset();
  }

  timeoutMs(): number {
    return this.timeout;
  }
}

export const aimd = defineScheme({
  id: 'aimd',
  title: 'AIMD',
  doc: 'Additive increase each ACK, multiplicative (or root) decrease when the timer fires.',
  mode: 'window',
  params: [
    num('a', 'packets', 0.1, 10, 0.1, 1, 'Additive increase per window of ACKs'),
    choice('increase', ['a/w', 'a/w2'], 'a/w', 'Increase per ACK: a/w (≈ a per RTT) or a/w² (slower)'),
    choice('decrease', ['multiplicative', 'sqrt', 'quartic'], 'multiplicative', 'On a loss: w·b, √w or w^¼'),
    num('b', '', 0.05, 0.95, 0.05, 0.5, 'Multiplicative decrease factor'),
    num('timeout', 'ms', 20, 1000, 10, 1000, 'No ACK for this long: the timer fires (decrease, send one packet)'),
    lossParam,
  ],
  create: (p) => new Aimd(p.a, p.increase === 'a/w2', p.decrease, p.b, p.timeout, p.loss === 'detect'),
});
