import { quote } from '../text/quote.ts';

/**
 * Mahimahi packet-delivery traces: one integer per line, a millisecond at which the bottleneck may
 * deliver one 1504-byte opportunity; repeated numbers are several opportunities in that millisecond.
 */
export const OPPORTUNITY_BYTES = 1504;

export interface Trace {
  name: string;
  /** Opportunity times in ms, non-decreasing. */
  times: Int32Array;
}

export class TraceError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`);
    this.name = 'TraceError';
  }
}

const MAX_LINES = 20_000_000;
/**
 * A run lasts its trace's length, and its metrics keep a slot per millisecond: an hour (the bundled
 * traces run up to 18 minutes) bounds what a file can ask of memory.
 */
export const MAX_TRACE_MS = 3_600_000;

/** Parses a trace file's text; throws TraceError naming the first bad line. */
export function parseTrace(text: string, name = 'trace'): Trace {
  const out = new Int32Array(Math.min(MAX_LINES, Math.max(16, text.length >> 1)));
  const n = plainLines(text, out);
  if (n > 0 && out[n - 1] > 0) return { name, times: out.slice(0, n) };
  return parseLines(text, name, out);
}

/**
 * The usual file, read in one tight loop: nothing but digits and line feeds, timestamps in order and
 * within the hour. Returns how many it read into `out`, or -1 at the first thing it does not take (a
 * carriage return, a space, a mark, an error), which `parseLines` then reads, or reports, as it would
 * have anyway. A page's worker reads two such files before its first run, before its code is optimised.
 */
function plainLines(text: string, out: Int32Array): number {
  let n = 0;
  let value = -1;
  let prev = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 10;
    if (c >= 48 && c <= 57) {
      value = (value < 0 ? 0 : value * 10) + (c - 48);
      if (value > MAX_TRACE_MS) return -1;
    } else if (c === 10) {
      if (value < 0) continue;
      if (value < prev || n === out.length) return -1;
      out[n++] = prev = value;
      value = -1;
    } else {
      return -1;
    }
  }
  return n;
}

/** Any trace file, line by line; throws TraceError naming the first bad line. */
function parseLines(text: string, name: string, out: Int32Array): Trace {
  let n = 0;
  let line = 1;
  let value = -1;
  let prev = -1;
  let bad = false;
  let tooLate = false;
  const finishLine = () => {
    if (bad) throw new TraceError(`not a whole number of milliseconds: ${quote(lineText(text, line))}`, line);
    if (tooLate) throw new TraceError(`${quote(lineText(text, line).trim())} ms is past the ${MAX_TRACE_MS.toLocaleString('en-US')} ms (an hour) a trace may last`, line);
    if (value >= 0) {
      if (value < prev) throw new TraceError(`timestamps must not decrease (${value} after ${prev})`, line);
      if (n === out.length) throw new TraceError(`more than ${MAX_LINES} opportunities`, line);
      out[n++] = value;
      prev = value;
    }
    value = -1;
    bad = false;
  };
  // A byte-order mark some editors write is no part of the first line.
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A carriage return alone ends a line, as in old Mac files; before a line feed it is part of CRLF.
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      finishLine();
      line++;
    } else if (c >= 48 && c <= 57) {
      if (tooLate) continue;
      value = (value < 0 ? 0 : value * 10) + (c - 48);
      tooLate = value > MAX_TRACE_MS;
    } else if (c === 13 || c === 32 || c === 9) {
      // trailing white space and CRLF endings are harmless
      if (value >= 0 && c !== 13 && nextNonSpace(text, i) > 0) bad = true;
    } else {
      bad = true;
    }
  }
  finishLine();
  if (n === 0) throw new TraceError('the trace is empty: it needs at least one line with a millisecond timestamp');
  if (out[n - 1] === 0) throw new TraceError('the last timestamp must be above 0 (it is the period the trace loops with)');
  return { name, times: out.slice(0, n) };
}

function nextNonSpace(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 10) return 0;
    if (c !== 32 && c !== 9 && c !== 13) return c;
  }
  return 0;
}

function lineText(text: string, line: number): string {
  return text.split(/\r\n|\r|\n/)[line - 1] ?? '';
}

export function formatTrace(trace: Trace): string {
  return Array.from(trace.times).join('\n') + '\n';
}

/** The period a looping trace repeats with: its last timestamp. */
export function tracePeriod(trace: Trace): number {
  return trace.times[trace.times.length - 1];
}

/**
 * A constant-rate trace: opportunities spread evenly over one period so that the mean rate is
 * `mbps` (at 1504 bytes an opportunity), looping with that period.
 */
export function constantRateTrace(mbps: number, periodMs = 1000): Trace {
  if (!(mbps > 0)) throw new TraceError('rate must be above 0 Mbit/s');
  const count = Math.max(1, Math.round((mbps * 1e6 * periodMs) / 1000 / 8 / OPPORTUNITY_BYTES));
  const times = new Int32Array(count);
  for (let i = 0; i < count; i++) times[i] = Math.max(1, Math.ceil(((i + 1) * periodMs) / count));
  return { name: `${mbps}Mbps`, times };
}

/** Mean capacity of the trace in Mbit/s over one period. */
export function traceMbps(trace: Trace): number {
  return (trace.times.length * OPPORTUNITY_BYTES * 8) / tracePeriod(trace) / 1000;
}
