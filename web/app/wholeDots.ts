import type { WorkerPool } from '../worker/pool.ts';
import type { RunView, Slot } from '../worker/protocol.ts';

/**
 * `view`'s whole dots, asked of `slot`'s worker, in its place once they come, unless a newer view took it
 * meanwhile (`update` is handed what to do with the view shown then).
 */
export async function putWholeDots(pool: WorkerPool | null, slot: Slot, view: RunView, update: (put: (now: RunView | null) => RunView | null) => void): Promise<void> {
  if (!pool || !view.series.coarseOnly) return;
  const whole = await pool.wholeDots(slot, view);
  if (whole) update((now) => (now === view ? whole : now));
}
