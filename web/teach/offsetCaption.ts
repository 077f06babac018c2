import type { OffsetFetchResult } from '../../shared/endpoints/offsetClient.ts';
import type { Summary } from '../../shared/metrics/summary.ts';

/** What a live fetch's own result adds to its figures: its file's MD5 once whole, and what the server answered besides data. */
export type LiveSaid = Pick<OffsetFetchResult, 'md5' | 'errors'>;

/**
 * One side's fetch as the offset scenario's caption tells it: what came back, how long it took, its
 * penalty, and for a live fetch the ERROR lines the server answered (a Submit it could not keep), each once.
 */
function fetchSaid(name: string, summary: Summary, live: LiveSaid | null = null): string {
  const o = summary.flows[0]?.offset;
  if (!o) return `${name}: no fetch.`;
  // a whole file has its MD5 worked out, Submitted or not
  const whole = o.md5 || live?.md5 ? 'the whole file, no Result from the server' : 'no whole file yet';
  const got = o.result === true ? 'the whole file, MD5 right' : o.result === false ? 'a file whose MD5 is wrong' : whole;
  // A fetch cut off before the server's Result has no time or penalty of the server's to tell.
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const paced = Number.isFinite(o.boundMs) ? ` (a perfectly paced client: ${seconds(o.boundMs)})` : '';
  const time = Number.isFinite(o.timeMs) ? ` in ${seconds(o.timeMs)}${paced}` : '';
  const penalty = Number.isFinite(o.penalty) ? `penalty ${o.penalty}` : 'no penalty told (the server tells it with the result)';
  const squished = o.squishes ? `, squished ${o.squishes}×` : '';
  const said = [...new Set(live?.errors.filter((e) => e.startsWith('ERROR: ')))].map((e) => ` The server answered “${e}”.`).join('');
  return `${name}: ${got}${time}, ${penalty}${squished}, ${o.duplicates} duplicate request${o.duplicates === 1 ? '' : 's'}.${said}`;
}

/**
 * The offset scenario's caption under the cards, the counterpart of the contest's under its plane: each
 * fetch in a sentence, then what ranks them.
 */
export function offsetCaption(sides: { name: string; summary: Summary; live?: LiveSaid | null }[]): string {
  if (sides.length === 0) return '';
  return `${sides.map((s) => fetchSaid(s.name, s.summary, s.live)).join(' ')} The leaderboard ranks a right MD5 first, then less time, then a lower penalty.`;
}
