import { COLORS } from '../../charts/palette.ts';
import type { SweepResult } from './useSweepRunner.ts';

export const SWEEP_COLORS = [COLORS.blue, COLORS.vermillion, COLORS.green, COLORS.purple];

/** The scoreboard's colours: with two marker shapes, a dozen schemes each get a look of their own. */
const BOARD_COLORS = [...SWEEP_COLORS, COLORS.orange, COLORS.sky];
const BOARD_MARKERS = ['circle', 'square'] as const;

/** A point's colour and marker: a scheme of its own on the scoreboard, else its sweep's colour. */
export function pointStyle(p: SweepResult, i: number, scoreboard: boolean): { color: string; marker: 'circle' | 'square' | 'dot' } {
  if (!scoreboard) return { color: SWEEP_COLORS[p.sweep], marker: 'dot' };
  return { color: BOARD_COLORS[i % BOARD_COLORS.length], marker: BOARD_MARKERS[Math.floor(i / BOARD_COLORS.length) % BOARD_MARKERS.length] };
}
