import { DISCIPLINES } from '../../shared/link/disciplines.ts';
import { withLinkValues } from '../../shared/link/params.ts';
import type { LinkSpec } from '../../shared/link/spec.ts';
import { fairnessLink, HALF_BDP_PACKETS } from '../../shared/scenarios/bulk.ts';

/**
 * A bottleneck the fairness grid can run on: the grid's link (50 Mbit/s, 25 ms each way) with these link
 * values, named as `npm run sim -- --scenario fairness` takes them as flags (queueLimit is --queue-limit).
 */
export interface GridLink {
  id: string;
  title: string;
  values: Record<string, string | number>;
}

/** Four bandwidth-delay products of 1500-byte packets: a buffer deep enough to bloat. */
const DEEP_PACKETS = 8 * HALF_BDP_PACKETS;
const deep = { queue: 'packets', queueLimit: DEEP_PACKETS };

const ALL_GRID_LINKS: readonly GridLink[] = [
  { id: 'shallow', title: `drop-tail, shallow (${HALF_BDP_PACKETS} packets, half a BDP)`, values: {} },
  { id: 'deep', title: `drop-tail, deep (${DEEP_PACKETS} packets, 4 BDP)`, values: deep },
  { id: 'fq-codel', title: `FQ-CoDel (${DEEP_PACKETS} packets)`, values: { ...deep, discipline: 'fq-codel' } },
  { id: 'dualpi2', title: `DualPI2 (${DEEP_PACKETS} packets)`, values: { ...deep, discipline: 'dualpi2' } },
];

/** The links whose queue discipline this build has (an AQM not yet in the table is not offered). */
export const GRID_LINKS: readonly GridLink[] = ALL_GRID_LINKS.filter((l) => (DISCIPLINES as readonly string[]).includes(String(l.values.discipline ?? 'drop-tail')));

export const gridLinkSpec = (id: string): LinkSpec => withLinkValues(fairnessLink(), (GRID_LINKS.find((l) => l.id === id) ?? GRID_LINKS[0]).values);
