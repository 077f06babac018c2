import { useEffect, useRef, useState } from 'react';
import { DATA_BYTES } from '../../../shared/net/packet.ts';
import { fairnessPairs, fairnessSpec, fairShares } from '../../../shared/scenarios/bulk.ts';
import { withPageCode } from '../../editor/userCode.ts';
import { SweepPool } from '../../worker/sweepPool.ts';
import { gridLinkSpec } from '../../state/fairnessLinks.ts';

/** One cell of the grid: a flow of `a` and a flow of `b`, each one's share of the max-min fair rate. */
export interface GridCell {
  a: string;
  b: string;
  shareA: number;
  shareB: number;
}

export interface GridState {
  running: boolean;
  /** The schemes and link the cells were run for (the grid drawn keeps them while new choices wait). */
  schemes: string[];
  cells: (GridCell | null)[];
  errors: string[];
  wallMs: number;
}

const IDLE: GridState = { running: false, schemes: [], cells: [], errors: [], wallMs: 0 };

/**
 * The fairness grid in the page: the cells `npm run sim -- --scenario fairness` runs (same pairs, specs and
 * seed), spread over the page's workers, each cell's shares as the command line computes them.
 */
export function useFairnessGrid() {
  const [state, setState] = useState<GridState>(IDLE);
  const pool = useRef<SweepPool | null>(null);
  useEffect(() => () => pool.current?.close(), []);

  const start = async (schemes: string[], linkId: string) => {
    pool.current ??= new SweepPool();
    const link = gridLinkSpec(linkId);
    const pairs = fairnessPairs(schemes);
    const specs = pairs.map(([a, b]) => fairnessSpec(a, b, link));
    const t0 = performance.now();
    setState({ running: true, schemes: [...new Set(schemes)], cells: pairs.map(() => null), errors: [], wallMs: 0 });
    await pool.current.run(
      specs.map(withPageCode),
      (i, summary) => {
        const [shareA, shareB] = fairShares(summary, link.mbps, specs[i].durationMs, DATA_BYTES);
        setState((s) => ({ ...s, cells: s.cells.map((c, k) => (k === i ? { a: pairs[i][0], b: pairs[i][1], shareA, shareB } : c)) }));
      },
      (i, message) => setState((s) => ({ ...s, errors: [...s.errors, `${pairs[i][0]} against ${pairs[i][1]}: ${message}`] })),
    );
    setState((s) => ({ ...s, running: false, wallMs: performance.now() - t0 }));
  };

  return { state, start, cancel: () => pool.current?.cancel() };
}
