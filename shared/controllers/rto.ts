/** Retransmission timeout from SRTT and RTTVAR as RFC 6298 computes it, with exponential backoff. */
export class RtoEstimator {
  srtt = NaN;
  rttvar = NaN;
  private base: number;
  private backoff = 1;

  constructor(
    private readonly minRto: number,
    initialRto = 1000,
    private readonly maxRto = 60_000,
  ) {
    this.base = initialRto;
  }

  sample(rtt: number): void {
    if (Number.isNaN(this.srtt)) {
      this.srtt = rtt;
      this.rttvar = rtt / 2;
    } else {
      this.rttvar = 0.75 * this.rttvar + 0.25 * Math.abs(this.srtt - rtt);
      this.srtt = 0.875 * this.srtt + 0.125 * rtt;
    }
    this.base = this.srtt + Math.max(1, 4 * this.rttvar);
    this.backoff = 1;
  }

  /** Doubles the timeout after it fired (RFC 6298 §5.5). */
  back(): void {
    this.backoff *= 2;
  }

  get rto(): number {
    return Math.min(this.maxRto, Math.max(this.minRto, this.base) * this.backoff);
  }
}
