/**
 * How Linux's BBR turns its model into packets (tcp_bbr.c), in packets of the sender's size: the TSO burst
 * goal, the quantization budget added to every window target, and what will still be in the network when
 * the pacer lets the next packet go.
 */

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
