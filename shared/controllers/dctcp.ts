import { Reno } from './reno.ts';
import { defineScheme, num, type Ack, type EcnCapability } from './types.ts';

/**
 * DCTCP (RFC 8257, Linux's tcp_dctcp.c): Reno's growth, ECT(1) packets, and a response to the extent of
 * congestion rather than its presence. α, the fraction of packets marked, is an EWMA with gain g
 * updated once per window of data (when the ACK of the last packet sent before the last update comes
 * back: Linux's snd_una ≥ next_seq); α starts at 1, as Linux's dctcp_alpha_on_init. α is a real number,
 * as RFC 8257 writes it, so that g may be any gain: Linux keeps it in 1/1024ths with g a power of two,
 * where a window with under 1/64 of its packets marked adds nothing and an α under 16/1024 falls to 0. The first echo of a window cuts it to
 * w × (1 − α/2), once per window (Linux's CWR state); a loss halves it (dctcp_react_to_loss). The
 * receiver here echoes every packet's mark on its own ACK, which DCTCP's two-state ACK machine emulates.
 */
export class Dctcp extends Reno {
  readonly ecn: EcnCapability = 'ect1';
  private alpha = 1;
  private acked = 0;
  private marked = 0;
  /** The window's end: α updates when this packet is acknowledged (the last sent before Linux's next_seq). */
  private windowEnd = 0;

  constructor(
    ssthresh: number,
    minRto: number,
    private readonly g: number,
  ) {
    super(ssthresh, minRto);
  }

  onAck(ack: Ack): void {
    this.acked++;
    if (ack.ce) this.marked++;
    const roundEnds = ack.seq >= this.windowEnd;
    if (roundEnds && this.alphaBeforeCut) this.endRound();
    super.onAck(ack);
    if (roundEnds && !this.alphaBeforeCut) this.endRound();
  }

  /**
   * Whether an ACK that ends a round updates α before its echo cuts the window: Linux's DCTCP updates α as
   * the ACK comes in (in_ack_event), before it enters CWR (tcp_fastretrans_alert) and sets ssthresh.
   */
  protected readonly alphaBeforeCut: boolean = true;

  /** Whether the round's marks update α (always, for DCTCP). */
  protected measuring(): boolean {
    return true;
  }

  private endRound(): void {
    if (this.measuring()) this.alpha = (1 - this.g) * this.alpha + (this.g * this.marked) / this.acked;
    this.acked = this.marked = 0;
    this.windowEnd = this.highestSent;
  }

  protected onEcho(_ack: Ack): void {
    if (this.recoveryUntil >= 0) return;
    this.cut(this.w * (1 - this.alpha / 2));
  }
}

export const dctcpParams = [
  num('ssthresh', 'packets', 2, 10000, 1, 64, 'Initial slow-start threshold'),
  num('minRto', 'ms', 10, 1000, 10, 200, 'Lower bound of the retransmission timeout (Linux: 200 ms)'),
  num('g', '', 0.001, 1, 0.001, 1 / 16, 'Gain of α, the EWMA of the fraction of packets marked (RFC 8257: 1/16)'),
] as const;

export const dctcp = defineScheme({
  id: 'dctcp',
  title: 'DCTCP',
  doc: 'Data-center TCP (RFC 8257): sends ECT(1) with --ecn on, cuts the window by α/2 once per window of marks, α the EWMA of the marked fraction.',
  mode: 'window',
  params: dctcpParams,
  create: (p) => new Dctcp(p.ssthresh, p.minRto, p.g),
});
