/**
 * How Linux's BBR turns its model into rates and packets (tcp_bbr.c), in packets of the sender's size: the
 * gains of each mode, the TSO burst goal, the quantization budget added to every window target, what will
 * still be in the network when the pacer lets the next packet go, and the ACK-aggregation allowance.
 */

export type Mode = 'startup' | 'drain' | 'probe-bw' | 'probe-rtt';

// Linux's gains are fractions of 256: 2/ln 2 rounded up, its inverse rounded down.
export const HIGH_GAIN = 739 / 256;
const DRAIN_GAIN = 88 / 256;
const CWND_GAIN = 2;
export const CYCLE = [1.25, 0.75, 1, 1, 1, 1, 1, 1];

/** bbr_update_gains: [pacing gain, window gain]; the probing phase's gain may be set, the draining one's is 2 − it. */
export function gains(mode: Mode, cycleIndex: number, probeGain: number): [number, number] {
  if (mode === 'startup') return [HIGH_GAIN, HIGH_GAIN];
  if (mode === 'drain') return [DRAIN_GAIN, HIGH_GAIN];
  if (mode === 'probe-rtt') return [1, 1];
  const g = CYCLE[cycleIndex];
  return [g > 1 ? probeGain : g < 1 ? 2 - probeGain : 1, CWND_GAIN];
}

/** Below this pacing rate (packets per second; 1.2 Mbit/s) Linux sends single-packet bursts. */
const MIN_TSO_RATE = 100;
/** GSO's 64 KB, less headers, in 1500-byte packets. */
const MAX_TSO_SEGS = 43;

/** bbr_tso_segs_goal: about a millisecond of packets at the pacing rate (sk_pacing_shift 10), at least 2 (1 below 1.2 Mbit/s). */
export function tsoSegsGoal(pacingPps: number): number {
  return Math.min(Math.max(Math.floor(pacingPps / 1024), pacingPps < MIN_TSO_RATE ? 1 : 2), MAX_TSO_SEGS);
}

/**
 * bbr_quantization_budget: room for three TSO bursts in flight, rounded up to an even count (fewer delayed
 * ACKs), and two more in the probing phase so that probing gets above the BDP even when it is small.
 */
export function quantizationBudget(cwnd: number, pacingPps: number, probingPhase: boolean): number {
  const even = (cwnd + 3 * tsoSegsGoal(pacingPps) + 1) & ~1;
  return probingPhase ? even + 2 : even;
}

/**
 * bbr_packets_in_net_at_edt: of `inflight` packets, those the bottleneck (`bw`, packets per ms) will not
 * have delivered in the `waitMs` until the next departure; a send that raises inflight counts its burst.
 */
export function inNetworkAtDeparture(inflight: number, bw: number, waitMs: number, raising: boolean, pacingPps: number): number {
  const deliveredMeanwhile = Math.floor(bw * waitMs);
  const atDeparture = inflight + (raising ? tsoSegsGoal(pacingPps) : 0);
  return deliveredMeanwhile >= atDeparture ? 0 : atDeparture - deliveredMeanwhile;
}

/** Epochs of ACKs are measured against the bandwidth; an extra is remembered for 5 to 10 rounds. */
const EXTRA_ACKED_WINDOW_ROUNDS = 5;
const EXTRA_ACKED_MAX_MS = 100;
const EPOCH_ACKED_RESET = 1 << 20;

/**
 * bbr_update_ack_aggregation (Linux 4.20+): how many packets arrived beyond what the bandwidth explains
 * since the ACK rate last fell below it, the largest over the last 5–10 rounds. Once the pipe is full it
 * is added to the window target, at most 100 ms of bandwidth, so the sender keeps sending through the
 * silences between aggregated ACKs (cellular links deliver in bursts).
 */
export class AckAggregation {
  private epochStart = 0;
  private epochAcked = 0;
  private readonly extra = [0, 0];
  private index = 0;
  private windowRounds = 0;

  /** One packet ACKed at `now` with a valid rate sample; `bw` in packets per ms. */
  acked(now: number, bw: number, roundStart: boolean, cwnd: number): void {
    if (roundStart) {
      this.windowRounds = Math.min(31, this.windowRounds + 1);
      if (this.windowRounds >= EXTRA_ACKED_WINDOW_ROUNDS) {
        this.windowRounds = 0;
        this.index = 1 - this.index;
        this.extra[this.index] = 0;
      }
    }
    let expected = Math.floor(bw * (now - this.epochStart));
    if (this.epochAcked <= expected || this.epochAcked + 1 >= EPOCH_ACKED_RESET) {
      this.epochAcked = 0;
      this.epochStart = now;
      expected = 0;
    }
    this.epochAcked++;
    const extra = Math.min(this.epochAcked - expected, cwnd);
    if (extra > this.extra[this.index]) this.extra[this.index] = extra;
  }

  /** bbr_ack_aggregation_cwnd: the packets to add to the window target. */
  allowance(bw: number, filledPipe: boolean): number {
    return filledPipe ? Math.min(Math.max(this.extra[0], this.extra[1]), Math.floor(bw * EXTRA_ACKED_MAX_MS)) : 0;
  }
}
