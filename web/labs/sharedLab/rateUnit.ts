import type { RunView } from '../../worker/protocol.ts';

/** A unit for rates on an axis: its name, and how many of it make one Mbit/s. */
export interface RateUnit {
  label: string;
  perMbps: number;
}

/**
 * The unit a link's own rate reads best in, as the preset names it (56.6 kbit/s, 100 Mbit/s, 10 Gbit/s):
 * the link's flows then read in small whole numbers whether it carries kilobits or gigabits.
 */
export function rateUnit(mbps: number): RateUnit {
  if (mbps < 1) return { label: 'kbit/s', perMbps: 1000 };
  if (mbps >= 1000) return { label: 'Gbit/s', perMbps: 0.001 };
  return { label: 'Mbit/s', perMbps: 1 };
}

/**
 * The rate of the constant-rate link a run crossed, Mbit/s (NaN for anything else). Read from the run
 * itself: while the next preset runs, the charts still show the previous one's flows on its link.
 */
export function linkMbps(view: RunView): number {
  const spec = view.spec;
  return spec && 'link' in spec && spec.link.kind === 'rate' ? spec.link.mbps : Number.NaN;
}
