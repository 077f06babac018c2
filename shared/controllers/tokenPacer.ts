import { BaseController, defineScheme, num, type Ack } from './types.ts';

/**
 * For the offset server: paces requests just slower than the token rate, so every request finds the
 * token that accrued since the last reply. A request the server drops keeps its token in the bucket, so
 * each loss lets one extra request ride right behind the next paced one. When many more requests go
 * unanswered than the server's own loss explains, the pacing was too fast (a slower phase began): the
 * rate falls to what the answers say; while answers look healthy it climbs back, up to `maxRate`.
 */
class TokenPacer extends BaseController {
  private rate: number;
  private spares = 0;
  private extraNext = false;
  private srtt = NaN;
  private readonly outstanding = new Map<number, number>();
  /** Extras in flight: one that goes unanswered most likely found no token, so it leaves none behind. */
  private readonly extras = new Set<number>();
  private answered = 0;
  private lost = 0;

  constructor(
    nominal: number,
    private readonly margin: number,
    private readonly expectedLoss: number,
    private readonly maxRate: number,
    private readonly windowRequests: number,
    private readonly bucket: number,
    private readonly minTimeout: number,
  ) {
    super();
    this.rate = nominal;
  }

  /** At this pace no more requests than rate × timeout can be awaiting a reply (two spare for extras). */
  windowSize(): number {
    return Math.ceil((this.rate * this.timeoutMs()) / 1000) + 2;
  }

  pacingRate(): number {
    return this.extraNext ? Infinity : this.rate * (1 - this.margin);
  }

  onSend(seq: number, now: number): void {
    this.outstanding.set(seq, now);
    if (this.extraNext) {
      this.extraNext = false;
      this.extras.add(seq);
    } else if (this.spares >= 1) {
      this.spares--;
      this.extraNext = true;
    }
  }

  onAck(ack: Ack): void {
    const rtt = ack.now - ack.sentAt;
    this.srtt = Number.isNaN(this.srtt) ? rtt : 0.875 * this.srtt + 0.125 * rtt;
    if (this.outstanding.delete(ack.seq)) this.answered++;
    this.extras.delete(ack.seq);
    this.judge();
  }

  /** Requests unanswered for the timeout are lost. */
  onLoss(now: number): void {
    const timeout = this.timeoutMs();
    for (const [seq, sentAt] of this.outstanding) {
      if (sentAt + timeout > now) continue;
      this.outstanding.delete(seq);
      this.lost++;
      if (!this.extras.delete(seq)) this.spares = Math.min(this.bucket - 1, this.spares + 1);
    }
    this.judge();
  }

  onTimeout(now: number): void {
    this.onLoss(now);
  }

  private judge(): void {
    const resolved = this.answered + this.lost;
    if (resolved < this.windowRequests) return;
    const unanswered = this.lost / resolved;
    if (unanswered > this.expectedLoss + 0.15) {
      // answered ≈ tokens: scale the rate to what the server actually gave, at most halving at once
      this.rate = Math.max(5, this.rate * Math.max(0.5, (1 - unanswered) / (1 - this.expectedLoss)));
      this.spares = 0;
    } else if (unanswered <= this.expectedLoss + 0.08) {
      this.rate = Math.min(this.maxRate, this.rate * 1.25);
    }
    this.answered = this.lost = 0;
  }

  timeoutMs(): number {
    return Math.max(this.minTimeout, 4 * (Number.isNaN(this.srtt) ? this.minTimeout : this.srtt));
  }

  estimates() {
    return { pacingRate: this.rate * (1 - this.margin), srtt: this.srtt, rto: this.timeoutMs() };
  }
}

export const tokenPacer = defineScheme({
  id: 'token-pacer',
  title: 'Token pacer',
  doc: 'Paces requests just under the token rate, spends the tokens lost requests leave, backs off when refused.',
  mode: 'window',
  params: [
    num('rate', 'requests/s', 1, 10_000, 1, 250, 'The token rate to pace at first'),
    num('margin', '%', 0, 50, 0.1, 3, 'How much slower than the rate to pace, so jitter never makes a request early'),
    num('loss', '%', 0, 90, 1, 11, "The server's own loss: more unanswered than this means pacing too fast"),
    num('maxRate', 'requests/s', 1, 10_000, 1, 250, 'The pace never climbs above this'),
    num('window', 'requests', 5, 500, 1, 20, 'Requests judged together before the rate changes'),
    num('bucket', 'tokens', 1, 1000, 1, 10, "The server's bucket: spare tokens never exceed it"),
    num('minTimeout', 'ms', 1, 2000, 1, 15, 'Shortest wait before a request counts as lost'),
  ],
  create: (p) => new TokenPacer(p.rate, p.margin / 100, p.loss / 100, p.maxRate, p.window, p.bucket, p.minTimeout),
});
