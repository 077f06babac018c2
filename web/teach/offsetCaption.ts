import type { Summary } from '../../shared/metrics/summary.ts';

/** One side's fetch as the offset scenario's caption tells it: what came back, how long it took, its penalty. */
function fetchSaid(name: string, summary: Summary): string {
  const o = summary.flows[0]?.offset;
  if (!o) return `${name}: no fetch.`;
  const got = o.result === true ? 'the whole file, MD5 right' : o.result === false ? 'a file whose MD5 is wrong' : 'no whole file yet';
  // A fetch cut off before the server's Result has no time or penalty of the server's to tell.
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const paced = Number.isFinite(o.boundMs) ? ` (a perfectly paced client: ${seconds(o.boundMs)})` : '';
  const time = Number.isFinite(o.timeMs) ? ` in ${seconds(o.timeMs)}${paced}` : '';
  const penalty = Number.isFinite(o.penalty) ? `penalty ${o.penalty}` : 'no penalty told (the server tells it with the result)';
  const squished = o.squishes ? `, squished ${o.squishes}×` : '';
  return `${name}: ${got}${time}, ${penalty}${squished}, ${o.duplicates} duplicate request${o.duplicates === 1 ? '' : 's'}.`;
}

/**
 * The offset scenario's caption under the cards, the counterpart of the contest's under its plane: each
 * fetch in a sentence, then what ranks them.
 */
export function offsetCaption(sides: { name: string; summary: Summary }[]): string {
  if (sides.length === 0) return '';
  return `${sides.map((s) => fetchSaid(s.name, s.summary)).join(' ')} The leaderboard ranks a right MD5 first, then less time, then a lower penalty.`;
}
