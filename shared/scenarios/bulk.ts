import type { LinkSpec } from '../link/spec.ts';
import type { Summary } from '../metrics/summary.ts';
import { contest, flow, rateLink } from './presets.ts';
import type { ScenarioSpec } from './spec.ts';

/**
 * Long-lived flows on one bottleneck: senders that never stop, every packet ACKed (the contest's endpoints),
 * all starting at once, on a constant-rate link of `mbps` (or, given `trace`, a bundled trace's link, looping)
 * for `seconds`.
 */
export function bulk(schemes: readonly string[], seconds: number, seed = 1, trace: string | null = null): ScenarioSpec {
  const spec = contest(
    trace ?? 'Verizon-LTE-short',
    schemes.map((s) => flow(s)),
    seed,
  );
  if (trace === null) spec.link = rateLink(12, 20);
  else spec.link = { ...spec.link, once: false };
  spec.durationMs = seconds * 1000;
  return spec;
}

/** The fairness grid's bottleneck unless the link flags say otherwise: 50 Mbit/s, 25 ms each way, a drop-tail queue of half a BDP. */
export const FAIRNESS_MBPS = 50;
export const FAIRNESS_DELAY_MS = 25;
/** Half of 50 Mbit/s × 50 ms in 1500-byte packets (208). */
export const HALF_BDP_PACKETS = 104;
export const FAIRNESS_SECONDS = 60;

export const fairnessLink = (): LinkSpec => rateLink(FAIRNESS_MBPS, FAIRNESS_DELAY_MS, undefined, { kind: 'packets', limit: HALF_BDP_PACKETS });

/** Every unordered pair of the schemes, a scheme against itself included, in the order given. */
export function fairnessPairs(schemes: readonly string[]): [string, string][] {
  const unique = [...new Set(schemes)];
  return unique.flatMap((a, i) => unique.slice(i).map((b): [string, string] => [a, b]));
}

/** One cell of the grid: a flow of each scheme on the link, for a minute of simulated time. */
export function fairnessSpec(a: string, b: string, link: LinkSpec, seed = 1): ScenarioSpec {
  const spec = bulk([a, b], FAIRNESS_SECONDS, seed);
  spec.link = link;
  return spec;
}

/** The link's capacity in Mbit/s, what two flows share: its rate, or a trace's mean rate over the run. */
export type Capacity = (spec: ScenarioSpec) => number;

/**
 * Each flow's throughput as a share of the max-min fair rate: with two flows that both want more than half
 * the link, half the capacity each. 1 is a fair share; 2 is the whole link. Throughput here is what the flow
 * had delivered over the whole run (a flow starved for most of it counts as starved).
 */
export function fairShares(summary: Summary, capacityMbps: number, durationMs: number, packetBytes: number): number[] {
  const fair = capacityMbps / summary.flows.length;
  return summary.flows.map((f) => (f.link.packetsDelivered * packetBytes * 8) / (durationMs * 1000) / fair);
}
