import { type RateUnit, rateUnit } from '../../charts/format.ts';
import type { RunView } from '../../worker/protocol.ts';

/**
 * The unit a shared-bottleneck run's flows read best in: that of its fastest flow's throughput (56.6 kbit/s
 * flows in kbit/s, 13 Mbit/s flows on a 1 Gbit/s link in Mbit/s), or of the link's rate while no flow has
 * delivered. Read from the run itself: while the next preset runs, the previous one's flows stay on screen.
 */
export function flowsUnit(view: RunView): RateUnit {
  const fastest = Math.max(0, ...view.summary.flows.map((f) => f.link.throughputMbps).filter(Number.isFinite));
  return rateUnit(fastest > 0 ? fastest : linkMbps(view));
}

/** The rate of the constant-rate link a run crossed, Mbit/s (NaN for anything else). */
export function linkMbps(view: RunView): number {
  const spec = view.spec;
  return spec && 'link' in spec && spec.link.kind === 'rate' ? spec.link.mbps : Number.NaN;
}
