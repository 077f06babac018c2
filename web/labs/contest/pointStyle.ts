import { HUES, MANY_COLORS } from '../../charts/palette.ts';
import type { SweepResult } from './useSweepRunner.ts';

export const SWEEP_COLORS = MANY_COLORS.slice(0, 4);

/**
 * The scoreboard's colours: with two marker shapes, a dozen schemes each get a look of their own; none is
 * the omniscient star's ink.
 */
const BOARD_COLORS = HUES;
const BOARD_MARKERS = ['circle', 'square'] as const;

/**
 * A point's colour and marker: a scheme of its own on the scoreboard (where each entry is a sweep of its
 * own), else its sweep's colour. By entry, not by arrival, so a scheme looks the same on every run.
 */
export function pointStyle(p: SweepResult, scoreboard: boolean): { color: string; marker: 'circle' | 'square' | 'dot' } {
  const k = p.sweep;
  if (!scoreboard) return { color: SWEEP_COLORS[k], marker: 'dot' };
  return { color: BOARD_COLORS[k % BOARD_COLORS.length], marker: BOARD_MARKERS[Math.floor(k / BOARD_COLORS.length) % BOARD_MARKERS.length] };
}
