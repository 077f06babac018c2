import { RtoEstimator } from './rto.ts';
import { BaseController, defineScheme, num, Rounds, type Ack } from './types.ts';
import { atMost, WindowedFilter } from './windowedFilter.ts';

/** Copa's minimum-RTT window (the paper's 10 s, a windowed minimum as mvfst keeps it) and its velocity rule: direction kept 3 RTTs before doubling. */
const RTT_MIN_WINDOW_MS = 10_000;
const SAME_DIRECTION_BEFORE_DOUBLING = 3;

/**
 * Copa (Arun & Balakrishnan, NSDI 2018), default mode. Target rate λt = 1/(δ·dq), dq the queueing delay
 * = RTTstanding − RTTmin, where RTTstanding is the smallest RTT over the last half smoothed RTT. Each ACK
 * moves the window by v/(δ·w) towards the target; the velocity v doubles while the window keeps moving
 * the same way (after three RTTs) and resets to 1 as soon as an ACK asks to move the other way (as mvfst
 * does: a velocity built up one way must not carry the window the other way for a whole round, which on a
 * link that stalls runs the window into the thousands). Starts by doubling every RTT until the rate first
 * exceeds the target. Paces at 2·w/RTTstanding.
 */
class Copa extends BaseController {
  private w = 10;
  private slowStart = true;
  private readonly samples: { at: number; rtt: number }[] = [];
  private standing = Infinity;
  private readonly rttMin = new WindowedFilter(RTT_MIN_WINDOW_MS, atMost, Infinity);
  private srtt = NaN;
  private velocity = 1;
  private direction = 0;
  private sameDirection = 0;
  private windowAtRoundStart = 10;
  private readonly rounds = new Rounds();
  private readonly rto = new RtoEstimator(200);

  constructor(private readonly delta: number) {
    super();
  }

  windowSize(): number {
    return this.w;
  }

  pacingRate(): number {
    return this.standing === Infinity ? Infinity : (2 * this.w * 1000) / this.standing;
  }

  onSend(seq: number): void {
    this.rounds.sent(seq);
  }

  onAck(ack: Ack): void {
    const rtt = ack.now - ack.sentAt;
    this.rto.sample(rtt);
    this.srtt = Number.isNaN(this.srtt) ? rtt : 0.875 * this.srtt + 0.125 * rtt;
    const rttMin = this.rttMin.update(ack.now, rtt);
    this.updateStanding(ack.now, rtt);
    const queueing = this.standing - rttMin;
    // λ ≤ λt ⇔ (w / RTTstanding) ≤ 1 / (δ·dq) ⇔ w·δ·dq ≤ RTTstanding
    const below = this.w * this.delta * queueing <= this.standing;
    if (this.slowStart) {
      if (below) this.w += 1;
      else this.slowStart = false;
    }
    if (!this.slowStart) this.move(below ? 1 : -1);
    if (this.rounds.ended(ack.seq)) this.endRound();
  }

  /** One ACK's step of v/(δ·w) up or down; a velocity built up the other way starts again from 1. */
  private move(direction: 1 | -1): void {
    if (direction !== this.direction && this.velocity > 1) this.turn(direction);
    this.w = Math.max(2, this.w + (direction * this.velocity) / (this.delta * this.w));
  }

  /** A new direction: the velocity starts again from 1, and the next round is judged from the window now. */
  private turn(direction: number): void {
    this.velocity = 1;
    this.sameDirection = 0;
    this.direction = direction;
    this.windowAtRoundStart = this.w;
  }

  /** RTTstanding: the smallest RTT of the last srtt/2. */
  private updateStanding(now: number, rtt: number): void {
    this.samples.push({ at: now, rtt });
    const since = now - this.srtt / 2;
    let drop = 0;
    while (drop < this.samples.length - 1 && this.samples[drop].at < since) drop++;
    if (drop > 0) this.samples.splice(0, drop);
    let m = Infinity;
    for (const s of this.samples) if (s.rtt < m) m = s.rtt;
    this.standing = m;
  }

  /** Once per window: the velocity doubles while the window moved the same way for three rounds. */
  private endRound(): void {
    const direction = Math.sign(this.w - this.windowAtRoundStart);
    this.windowAtRoundStart = this.w;
    if (this.slowStart) return;
    if (direction !== 0 && direction === this.direction) {
      if (++this.sameDirection >= SAME_DIRECTION_BEFORE_DOUBLING) this.velocity *= 2;
    } else this.turn(direction);
  }

  onTimeout(): void {
    this.w = 2;
    this.velocity = 1;
    this.rto.back();
  }

  timeoutMs(): number {
    return this.rto.rto;
  }

  estimates() {
    return { rttMin: this.rttMin.value, srtt: this.srtt, pacingRate: this.pacingRate() };
  }
}

export const copa = defineScheme({
  id: 'copa',
  title: 'Copa',
  doc: 'Steers towards the rate 1/(δ × queueing delay), with a velocity that grows while the direction holds (Arun & Balakrishnan; reset at once on a turn, as mvfst does).',
  mode: 'window',
  params: [num('delta', '', 0.05, 2, 0.05, 0.5, 'δ: smaller δ favours throughput, larger favours low delay')],
  create: (p) => new Copa(p.delta),
});
