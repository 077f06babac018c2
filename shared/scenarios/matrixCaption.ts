import type { FlowSummary } from '../metrics/summary.ts';
import type { MatrixRow } from './presets.ts';

type Run = NonNullable<FlowSummary['reliable']>;

const seconds = (ms: number) => `${Number((ms / 1000).toPrecision(3))} s`;
const times = (x: number) => `${Number(x.toPrecision(2))}×`;
const maxOf = (runs: readonly Run[], f: (r: Run) => number) => Math.max(0, ...runs.map(f));

/** Why the row's runs timed out: the limit, and RFC 6298's backoff where it doubled the timer. */
function timedOut(row: MatrixRow, runs: readonly Run[], late: readonly Run[]): string {
  const head = `${late.length} of ${runs.length} seeds ran past the harness's ${seconds(row.timeoutMs)} limit`;
  const backoff = late.filter((r) => r.transfer.longestTimerMs >= 2 * r.transfer.firstTimerMs);
  if (backoff.length === 0) return `${head}; the timer fired up to ${maxOf(late, (r) => r.transfer.timeouts)} times`;
  const pass = (1 - row.drop / 100) ** 2;
  const loss = row.drop > 0 ? `: with ${row.drop}% loss each way a packet and its ACK both get through ${Math.round(pass * 100)}% of the time, so timeouts come in runs` : '';
  return `${head}: RFC 6298 backoff doubled the timer after each timeout in a row, up to ${seconds(maxOf(backoff, (r) => r.transfer.longestTimerMs))}${loss}, and the sender spent the time waiting`;
}

/** Retransmissions the receiver did not need, and why when the timer fired before the RTT was up. */
function spurious(runs: readonly Run[]): string | null {
  const most = runs.reduce((a, r) => (r.transfer.spurious > a.transfer.spurious ? r : a));
  const t = most.transfer;
  if (t.spurious === 0) return null;
  const what = `${t.spurious} spurious retransmission${t.spurious === 1 ? '' : 's'} (segments the receiver already had)`;
  if (t.timeouts > 0 && t.maxRttMs > t.firstTimerMs)
    return `${what}: the timer (${seconds(t.firstTimerMs)}) is shorter than the RTT under queueing (up to ${seconds(t.maxRttMs)}), so it fires for packets still on their way`;
  return what;
}

/**
 * A row's caption, from its runs over every seed: why it failed or was slow — the harness's limit and
 * the timer's backoff, spurious retransmissions, the bytes on the wire — or null when it has nothing to
 * explain (every seed passed with the file sent about once).
 */
export function rowCaption(row: MatrixRow, runs: readonly Run[]): string | null {
  if (runs.length === 0) return null;
  const late = runs.filter((r) => Number.isNaN(r.seconds));
  const slow = runs.filter((r) => r.grade?.label === 'FAIL');
  const parts: string[] = [];
  if (late.length > 0) parts.push(timedOut(row, runs, late));
  else if (slow.length > 0) parts.push(`${slow.length} of ${runs.length} seeds were slower than the grade's minimum goodput (FAIL)`);
  const extra = spurious(runs);
  if (extra && (late.length > 0 || slow.length > 0 || maxOf(runs, (r) => r.overhead) >= 1.5)) parts.push(extra);
  const overhead = runs.map((r) => r.overhead).filter(Number.isFinite);
  const [least, most] = [Math.min(...overhead), Math.max(...overhead)];
  if (most >= 1.5) parts.push(`bytes on the wire: ${least === most ? times(most) : `${times(least)}–${times(most)}`} the file`);
  return parts.length > 0 ? `${parts.join('; ')}.` : null;
}
