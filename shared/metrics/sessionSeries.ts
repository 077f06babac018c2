import type { EventLog } from '../log/eventLog.ts';
import { K } from '../log/kinds.ts';
import { niceBin, type RunSeries, runSeries } from './series.ts';

/**
 * What the offset-server exercise asks to see of one client's session, from the server's record of it
 * (the relay's /api/sessions CSV): the server sees requests, not the client's rounds, so rounds are
 * found from the requests' timing.
 */
export interface SessionSeries {
  /** Request and reply dots by offset, drops, squished periods (from the run series every chart uses). */
  run: RunSeries;
  /** Requests per round (t of the round's first request, requests): the client's burst size. */
  rounds: Float64Array;
  /** Total penalty after each token-less request (t, penalty), starting from (first event, 0). */
  penalty: Float64Array;
  /** Replies per second in each interval (interval start, replies/s), and the interval. */
  replyRate: Float64Array;
  binMs: number;
  /** The token rate in force (t, tokens/s), as the server recorded it. */
  tokenRate: Float64Array;
  /** First and last event's time, ms since the session started. */
  startMs: number;
  endMs: number;
}

/**
 * Requests closer than this to the one before belong to the same round: a burst leaves the client
 * within a millisecond or two of the server's clock, and a paced client waits longer than that.
 */
export const ROUND_GAP_MS = 2;

/** Bursts: requests each within `gapMs` of the one before form one round. */
export function roundsOf(log: EventLog, gapMs = ROUND_GAP_MS): Float64Array {
  const c = log.columns;
  const out: number[] = [];
  let last = -Infinity;
  for (let i = 0; i < log.length; i++) {
    if (c.kind[i] !== K.send) continue;
    const t = c.t[i];
    if (t - last > gapMs) out.push(t, 1);
    else out[out.length - 1]++;
    last = t;
  }
  return Float64Array.from(out);
}

/** Replies per second in intervals of `binMs` from `startMs` to `endMs`. */
export function replyRateOf(log: EventLog, startMs: number, endMs: number, binMs: number): Float64Array {
  const bins = Math.max(1, Math.ceil((endMs - startMs + 1) / binMs));
  const counts = new Float64Array(bins);
  const c = log.columns;
  for (let i = 0; i < log.length; i++) if (c.kind[i] === K.reply) counts[Math.min(bins - 1, Math.floor((c.t[i] - startMs) / binMs))]++;
  const out = new Float64Array(2 * bins);
  for (let b = 0; b < bins; b++) {
    out[2 * b] = startMs + b * binMs;
    out[2 * b + 1] = (counts[b] * 1000) / binMs;
  }
  return out;
}

function penaltyOf(log: EventLog, startMs: number): Float64Array {
  const c = log.columns;
  const out = [startMs, 0];
  for (let i = 0; i < log.length; i++) if (c.kind[i] === K.penalty) out.push(c.t[i], c.value[i]);
  return Float64Array.from(out);
}

export function sessionSeries(log: EventLog, gapMs = ROUND_GAP_MS): SessionSeries {
  const startMs = log.length ? log.columns.t[0] : 0;
  const endMs = log.length ? log.columns.t[log.length - 1] : 0;
  const run = runSeries(log, endMs, null);
  // Intervals of at least 100 ms: shorter ones count too few replies to compare with a rate.
  const binMs = Math.max(100, niceBin(endMs - startMs, 60));
  return {
    run,
    rounds: roundsOf(log, gapMs),
    penalty: penaltyOf(log, startMs),
    replyRate: replyRateOf(log, startMs, endMs, binMs),
    binMs,
    tokenRate: withEnd(run.estimates.tokenRate ?? new Float64Array(0), endMs),
    startMs,
    endMs,
  };
}

/** A step series carried on to `endMs`, so its last level is drawn to the end. */
function withEnd(steps: Float64Array, endMs: number): Float64Array {
  if (steps.length === 0 || steps[steps.length - 2] >= endMs) return steps;
  const out = new Float64Array(steps.length + 2);
  out.set(steps);
  out[steps.length] = endMs;
  out[steps.length + 1] = steps[steps.length - 1];
  return out;
}
