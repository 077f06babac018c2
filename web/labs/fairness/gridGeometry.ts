import { scaleBand, scaleLinear } from 'd3-scale';
import type { GridCell } from './useFairnessGrid.ts';

/** A square of the grid: the row scheme's flow against the column scheme's, and where it is drawn. */
export interface GridSquare {
  row: string;
  col: string;
  x: number;
  y: number;
  size: number;
  /** The row flow's and the column flow's shares of the fair rate; null while its run is under way. */
  shares: [number, number] | null;
  fill: string;
}

export const LABEL_WIDTH = 90;
export const HEADER_HEIGHT = 28;
const PENDING = '#e4e4e7';

/**
 * The row flow's share as a colour: below its fair share warm, above it cool, white at exactly fair. The
 * ends stay light so the labels' dark text reads on every square.
 */
export const shareColor = scaleLinear<string>().domain([0, 1, 2]).range(['#f4a582', '#f7f7f7', '#92c5de']).clamp(true);

/** The row flow's share then the column flow's, from the cell of their pair (run in either order). */
function sharesOf(cells: readonly (GridCell | null)[], row: string, col: string): [number, number] | null {
  const c = cells.find((x) => x && ((x.a === row && x.b === col) || (x.a === col && x.b === row)));
  if (!c) return null;
  return c.a === row ? [c.shareA, c.shareB] : [c.shareB, c.shareA];
}

/** Each pair's square in a full matrix (a pair's run shows twice, once from each side), `cell` pixels a side. */
export function gridSquares(schemes: readonly string[], cells: readonly (GridCell | null)[], cell: number): GridSquare[] {
  const band = scaleBand<string>()
    .domain(schemes)
    .range([0, schemes.length * cell])
    .paddingInner(0.04);
  return schemes.flatMap((row) =>
    schemes.map((col) => {
      const shares = sharesOf(cells, row, col);
      return { row, col, x: LABEL_WIDTH + band(col)!, y: HEADER_HEIGHT + band(row)!, size: band.bandwidth(), shares, fill: shares ? shareColor(shares[0]) : PENDING };
    }),
  );
}
