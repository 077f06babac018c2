import { EventLog } from '../log/eventLog.ts';
import { DROP, K } from '../log/kinds.ts';
import { FormatError } from './errors.ts';
import type { Run } from './runFacts.ts';

/**
 * Mahimahi's link log (`mm-link --uplink-log`, src/frontend/link_queue.cc), for the run's bottleneck:
 *   # base timestamp: B      then lines of
 *   t + bytes                a packet joins the queue
 *   t # 1504                 a delivery opportunity (the trace's)
 *   t - bytes delay          a packet leaves, `delay` ms after it arrived
 *   t d packets bytes        the queue dropped packets (drop-tail, an AQM)
 * Times are whole milliseconds (Mahimahi's clock); a run on another link is rounded to them. Within a
 * millisecond the opportunities and the departures they carry come first, as mm-link serves the trace up
 * to now before a packet joins. `mm-throughput-graph` reads `+`, `#` and `-` lines (it stops at `d`).
 */
export const MM_OPPORTUNITY = 1504;

/** Opportunities (ms, sorted) the trace gives over the run: its times repeated with its period, up to `endMs`. */
export function opportunitiesOver(times: ArrayLike<number>, endMs: number, once: boolean): number[] {
  const out: number[] = [];
  const period = times.length ? times[times.length - 1] : 0;
  if (period <= 0) return out;
  for (let base = 0; base <= endMs; base += period) {
    for (let i = 0; i < times.length && base + times[i] <= endMs; i++) out.push(base + times[i]);
    if (once) break;
  }
  return out;
}

export function encodeMahimahiLog(run: Run, opportunities: readonly number[], label = 'pipefill'): string {
  const c = run.log.columns;
  const lines: [number, number, string][] = [];
  for (const t of opportunities) lines.push([t, 0, `${t} # ${MM_OPPORTUNITY}`]);
  for (let i = 0; i < run.log.length; i++) {
    const t = Math.round(c.t[i]);
    const bytes = c.bytes[i];
    switch (c.kind[i]) {
      case K.depart:
        lines.push([t, 1, `${t} - ${bytes} ${Math.round(c.t[i]) - Math.round(c.t[i] - c.value[i])}`]);
        break;
      case K.enqueue:
        lines.push([t, 2, `${t} + ${bytes}`]);
        break;
      case K.drop:
        // A full queue refuses a packet as it arrives: mm-link logs its arrival, then the drop.
        if (c.value[i] === DROP.queue) lines.push([t, 2, `${t} + ${bytes}\n${t} d 1 ${bytes}`]);
        else if (c.value[i] === DROP.aqm) lines.push([t, 2, `${t} d 1 ${bytes}`]);
        break;
    }
  }
  // Stable: rows of the log keep their order within a millisecond and a rank.
  lines.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const head = [`# mahimahi mm-link (uplink) [${label}] > ${label}.log`, '# command line: pipefill', '# queue: pipefill bottleneck', '# init timestamp: 0', '# base timestamp: 0'];
  return `${[...head, ...lines.map((l) => l[2])].join('\n')}\n`;
}

/**
 * Reads a link log into the bottleneck's rows: arrivals as enqueues (the queue's length after, in packets),
 * departures with their queueing delay, drops. Packets are numbered in order of arrival; a departure is
 * the earliest waiting packet that arrived `delay` ms before it. A drop right after an arrival is that
 * packet refused by a full queue; any other, packets an AQM dropped from the head. Opportunities are
 * returned apart: the log has no row for them.
 */
export function decodeMahimahiLog(text: string): Run & { opportunities: number[] } {
  const log = new EventLog(Math.max(16, text.length >> 4));
  const opportunities: number[] = [];
  const waiting: { seq: number; t: number; bytes: number }[] = [];
  // An arrival waits for the next line: a drop there refuses it.
  let arrival: { seq: number; t: number; bytes: number } | null = null;
  const admit = () => {
    if (!arrival) return;
    waiting.push(arrival);
    log.push(arrival.t, K.enqueue, 0, arrival.seq, arrival.bytes, waiting.length, 0);
    arrival = null;
  };
  let base: number | null = null;
  let arrived = 0;
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n].trim();
    const at = `line ${n + 1}`;
    if (line === '') continue;
    const b = /^# base timestamp: (\d+)$/.exec(line);
    if (b) {
      if (base !== null) throw new FormatError(`${at}: a second base timestamp`);
      base = Number(b[1]);
      continue;
    }
    if (line.startsWith('#')) continue;
    const f = line.split(/\s+/);
    if (base === null) throw new FormatError(`${at}: an event before the "# base timestamp:" line (not an mm-link log?)`);
    if (f.length < 3 || !/^\d+$/.test(f[0]) || !/^\d+$/.test(f[2])) throw new FormatError(`${at}: expected "timestamp event bytes [delay]" with whole numbers (got "${line.slice(0, 60)}")`);
    const t = Number(f[0]) - base;
    const bytes = Number(f[2]);
    if (f[1] !== 'd') admit();
    switch (f[1]) {
      case '+':
        arrival = { seq: arrived++, t, bytes };
        break;
      case '#':
        opportunities.push(t);
        break;
      case '-': {
        if (f.length < 4 || !/^\d+$/.test(f[3])) throw new FormatError(`${at}: a departure needs its delay ("timestamp - bytes delay")`);
        const delay = Number(f[3]);
        const k = Math.max(
          0,
          waiting.findIndex((p) => p.t === t - delay),
        );
        const seq = waiting.length ? waiting.splice(k, 1)[0].seq : -1;
        log.push(t, K.depart, 0, seq, bytes, delay, 0);
        break;
      }
      case 'd': {
        if (f.length < 4 || !/^\d+$/.test(f[3])) throw new FormatError(`${at}: a drop needs its packets and bytes ("timestamp d packets bytes")`);
        const each = Math.round(Number(f[3]) / Math.max(1, bytes));
        for (let k = 0; k < bytes; k++) {
          const refused: { seq: number; t: number; bytes: number } | null = arrival;
          if (refused) log.push(t, K.drop, 0, refused.seq, refused.bytes, DROP.queue, 0);
          else log.push(t, K.drop, 0, waiting.shift()?.seq ?? -1, each, DROP.aqm, 0);
          arrival = null;
        }
        break;
      }
      default:
        throw new FormatError(`${at}: unknown event "${f[1]}" (mm-link logs have +, #, - and d)`);
    }
  }
  admit();
  if (base === null) throw new FormatError('not an mm-link log: no "# base timestamp:" line');
  return { log, spec: null, opportunities };
}
