import { bulk } from './bulk.ts';
import { rateLink } from './presets.ts';
import type { ScenarioSpec } from './spec.ts';

/**
 * Starvation of delay-bounding schemes (Arun, Alizadeh and Balakrishnan, "Starvation in end-to-end
 * congestion control", SIGCOMM 2022): two flows of Copa share a 12 Mbit/s link, 20 ms each way; the
 * second flow's ACKs are aggregated, each held up to 100 ms, far more than the few milliseconds of queueing
 * delay Copa settles at. Copa reads its standing RTT as the least RTT of the last half RTT, and takes what
 * it exceeds the least RTT seen by as queueing: the held ACKs make that excess tens of milliseconds no
 * queue caused, so the jittered flow keeps its rate low, and the other flow takes the link.
 */
export const STARVATION = { id: 'starvation', scheme: 'copa', mbps: 12, delayMs: 20, jitteredFlow: 1, jitterMs: 100 } as const;

/**
 * The starvation preset with `schemes` (repeated to two flows when one is given), for `seconds`, on its
 * constant-rate link or, given `trace`, a bundled trace's link (as the bulk scenario takes one).
 */
export function starvation(schemes: readonly string[] = [STARVATION.scheme], seconds = 60, seed = 1, trace: string | null = null): ScenarioSpec {
  const spec = bulk([schemes[0], schemes[1] ?? schemes[0]], seconds, seed, trace);
  if (trace === null) spec.link = rateLink(STARVATION.mbps, STARVATION.delayMs);
  spec.ackJitter = { flow: STARVATION.jitteredFlow, ms: STARVATION.jitterMs };
  return spec;
}
