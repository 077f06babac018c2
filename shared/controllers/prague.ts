import { Dctcp, dctcpParams } from './dctcp.ts';
import { defineScheme, type Ack } from './types.ts';

/**
 * TCP Prague as the L4S team's Linux reference (tcp_prague.c) runs it with RTT independence off
 * (RTT_CONTROL_NONE): DCTCP's α (g = 1/16, from 1, once per round) and its cut of w·α/2 once per round
 * with marks, with the reference's differences: α holds until the first CE shows an AQM on the path;
 * the window grows on every unmarked ACK, during the cut's round too (per ACK 1/w, or 1 in slow start),
 * so the random marks of a PI2 queue do not stall it; a loss halves it and stops growth for its round.
 * It paces at w/srtt (twice that in slow start below half of ssthresh), so its packets arrive smoothly
 * at a shallow L4S queue. On an ACK that both ends a round and brings the first echo of another, the
 * cut comes first, with the α of the rounds before, as the reference orders them (DCTCP updates α first).
 * Not modelled: the RTT-independence heuristics and the classic-ECN fallback (both off by default in the
 * reference's module parameters for the fallback; we leave scaling off). Where this deviates: the
 * reference keeps an integer window and books a cut (w·α/2, or half the window on a loss) as a debt paid
 * one packet per ACK within the round; this window is a real number that takes the cut at once, as the
 * other window schemes here do, so the window chart shows DCTCP's sawtooth.
 */
class Prague extends Dctcp {
  /** The reference updates α in its cong_control, after the ACK's echo entered CWR: the cut takes the α of the rounds before. */
  protected readonly alphaBeforeCut = false;
  private sawCe = false;
  private lossRoundUntil = -1;

  onAck(ack: Ack): void {
    if (ack.ce) this.sawCe = true;
    super.onAck(ack);
  }

  protected measuring(): boolean {
    return this.sawCe;
  }

  /** Unmarked ACKs grow the window even in the round of a cut; a loss's round does not grow. */
  protected grow(ack: Ack, _cutRound: boolean): void {
    if (ack.ce) return;
    if (this.lossRoundUntil >= 0) {
      if (ack.cumulative <= this.lossRoundUntil) return;
      this.lossRoundUntil = -1;
    }
    this.w += this.w < this.ssthresh ? 1 : 1 / this.w;
  }

  onLoss(_now: number, _seq: number): void {
    if (this.lossRoundUntil >= 0) return;
    this.w = this.ssthresh = Math.max(2, this.w / 2);
    this.lossRoundUntil = this.highestSent;
  }

  onTimeout(): void {
    super.onTimeout();
    this.lossRoundUntil = -1;
  }

  pacingRate(): number {
    const srtt = this.rto.srtt;
    if (!(srtt > 0)) return Infinity;
    const perSecond = (this.w * 1000) / srtt;
    return this.w < this.ssthresh / 2 ? 2 * perSecond : perSecond;
  }
}

export const prague = defineScheme({
  id: 'prague',
  title: 'TCP Prague',
  doc: 'L4S (RFC 9331): DCTCP’s response to the marked fraction, ECT(1) with --ecn on, paced, growing on every unmarked ACK (Linux’s tcp_prague.c, without RTT independence).',
  mode: 'window',
  params: dctcpParams,
  create: (p) => new Prague(p.ssthresh, p.minRto, p.g),
});
