import type { SchemeCatalogue } from '../../../shared/controllers/registry.ts';
import { LINK_PARAMS, withLinkValues } from '../../../shared/link/params.ts';
import { DATA_BYTES } from '../../../shared/net/packet.ts';
import { fairnessLink, fairnessPairs, fairnessSpec, fairShares } from '../../../shared/scenarios/bulk.ts';
import { OPPORTUNITY_BYTES, traceMbps } from '../../../shared/trace/mahimahi.ts';
import { loadTrace } from '../../traces.ts';
import { refuseUnusedLinkFlags } from '../../link/flags.ts';
import { readSchemaFlags } from '../flags.ts';
import type { Io } from '../tool.ts';
import { runOnce } from './oneRun.ts';
import type { SimFlags } from './simFlags.ts';

export interface FairnessCell {
  a: string;
  b: string;
  shareA: number;
  shareB: number;
}

/**
 * The fairness grid: every unordered pair of the schemes (each against itself too), one flow of each on the
 * grid's bottleneck (or the one the link flags describe), each flow's share of the max-min fair rate.
 */
export function runFairness(flags: SimFlags, given: Record<string, unknown>, schemes: readonly string[], catalogue: SchemeCatalogue, io: Io): number {
  const link = withLinkValues(fairnessLink(), readSchemaFlags(LINK_PARAMS, given, 'the link'));
  refuseUnusedLinkFlags(link, given);
  const capacity = link.kind === 'rate' ? link.mbps : traceMbps(loadTrace(link.trace));
  const packetBytes = link.kind === 'rate' ? DATA_BYTES : OPPORTUNITY_BYTES;
  const cells = fairnessPairs(schemes).map(([a, b]): FairnessCell => {
    const spec = fairnessSpec(a, b, link, flags.seed);
    spec.durationMs = flags.duration * 1000;
    if (flags.hostJitter === 'off') spec.hostJitter = false;
    const [shareA, shareB] = fairShares(runOnce(spec, catalogue).summary, capacity, spec.durationMs, packetBytes);
    return { a, b, shareA, shareB };
  });
  io.out(flags.json ? JSON.stringify({ cells }) : cells.map((c) => `${c.a.padEnd(16)} ${c.shareA.toFixed(2)}  ${c.b.padEnd(16)} ${c.shareB.toFixed(2)}`).join('\n'));
  return 0;
}
