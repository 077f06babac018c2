import { OPPORTUNITY_BYTES, type Trace, TraceError } from '../trace/mahimahi.ts';
import type { Rng } from '../sim/rng.ts';

/**
 * A link trace built from pieces: each a stretch of constant rate, or an outage (rate 0). The adversarial
 * search breeds these, not raw timestamps, so a mutation is a change a reader can name ("the rate drops to
 * 0.6 Mbit/s for 2.1 s") and the worst trace found reads as a story.
 */
export interface Segment {
  /** How long the segment lasts, whole ms. */
  ms: number;
  /** Its rate; 0 is an outage. */
  mbps: number;
}

/** Rates a segment may take, Mbit/s (the bundled LTE traces range over these). */
export const MIN_MBPS = 0.5;
export const MAX_MBPS = 40;
/** The shortest segment, ms: shorter ones are below what a controller can be said to react to. */
export const MIN_SEGMENT_MS = 100;
/** At most this many segments, so a trace stays a story of a few events. */
export const MAX_SEGMENTS = 16;
/** The chance a new segment's rate is an outage. */
const OUTAGE_CHANCE = 0.2;

/** Mahimahi timestamps of the segments: at r Mbit/s a 1504-byte opportunity every 1504·8/(r·1000) ms. */
export function segmentsTrace(segments: readonly Segment[], name = 'stress'): Trace {
  const times: number[] = [];
  let t = 0;
  let credit = 0;
  for (const s of segments) {
    const perMs = (s.mbps * 1e6) / 8 / 1000;
    for (let i = 0; i < s.ms; i++, t++) {
      credit += perMs;
      for (; credit >= OPPORTUNITY_BYTES; credit -= OPPORTUNITY_BYTES) times.push(t + 1);
    }
  }
  // The run lasts as long as the trace's last timestamp says: a trace that ends in an outage still lasts it.
  if (times.length === 0 || times[times.length - 1] < t) times.push(t);
  return { name, times: Int32Array.from(times) };
}

/** A rate drawn log-uniformly between the bounds, or an outage. */
function randomRate(rng: Rng): number {
  if (rng.chance(OUTAGE_CHANCE)) return 0;
  return roundRate(MIN_MBPS * (MAX_MBPS / MIN_MBPS) ** rng.next());
}

/** Rates keep two decimals: the trace file and the share link say the same rate. */
const roundRate = (mbps: number) => Math.round(Math.min(MAX_MBPS, Math.max(MIN_MBPS, mbps)) * 100) / 100;

/** `count` segments over `totalMs`, their lengths random but each at least the minimum. */
export function randomSegments(rng: Rng, totalMs: number): Segment[] {
  const count = Math.min(MAX_SEGMENTS, Math.max(1, Math.floor(totalMs / MIN_SEGMENT_MS)), 3 + rng.int(8));
  const weights = Array.from({ length: count }, () => 0.2 + rng.next());
  return fitLengths(
    weights.map((w) => ({ ms: w, mbps: randomRate(rng) })),
    totalMs,
  );
}

/** Scales the segments' lengths to whole ms that add up to `totalMs`, none under the minimum. */
export function fitLengths(segments: readonly Segment[], totalMs: number): Segment[] {
  const spare = totalMs - MIN_SEGMENT_MS * segments.length;
  const weight = segments.reduce((sum, s) => sum + s.ms, 0);
  let given = 0;
  return segments.map((s, i) => {
    const ms = i === segments.length - 1 ? totalMs - given : MIN_SEGMENT_MS + Math.floor((spare * s.ms) / weight);
    given += ms;
    return { ms, mbps: s.mbps };
  });
}

/** Adjacent segments of the same rate are one. */
function merged(segments: readonly Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const s of segments) {
    const last = out[out.length - 1];
    if (last && last.mbps === s.mbps) last.ms += s.ms;
    else out.push({ ...s });
  }
  return out;
}

/** One small change: a segment's rate moved or cut to an outage, a boundary moved, a segment split or joined. */
export function mutate(parent: readonly Segment[], rng: Rng, totalMs: number): Segment[] {
  const s = parent.map((x) => ({ ...x }));
  const i = rng.int(s.length);
  switch (rng.int(4)) {
    case 0:
      s[i].mbps = s[i].mbps === 0 || rng.chance(0.3) ? randomRate(rng) : roundRate(s[i].mbps * 4 ** rng.uniform(-1, 1));
      break;
    case 1: {
      if (s.length < 2) return mutate(parent, rng, totalMs);
      const j = Math.min(i, s.length - 2);
      const both = s[j].ms + s[j + 1].ms;
      s[j].ms = MIN_SEGMENT_MS + Math.floor(rng.next() * (both - 2 * MIN_SEGMENT_MS + 1));
      s[j + 1].ms = both - s[j].ms;
      break;
    }
    case 2: {
      if (s.length >= MAX_SEGMENTS || s[i].ms < 2 * MIN_SEGMENT_MS) return mutate(parent, rng, totalMs);
      const first = MIN_SEGMENT_MS + Math.floor(rng.next() * (s[i].ms - 2 * MIN_SEGMENT_MS + 1));
      s.splice(i, 1, { ms: first, mbps: s[i].mbps }, { ms: s[i].ms - first, mbps: randomRate(rng) });
      break;
    }
    default:
      if (s.length < 2) return mutate(parent, rng, totalMs);
      s[Math.min(i, s.length - 2)].mbps = s[Math.min(i, s.length - 2) + 1].mbps;
  }
  return merged(s);
}

/** The first parent's segments up to a moment, the second's after it. */
export function crossover(a: readonly Segment[], b: readonly Segment[], rng: Rng, totalMs: number): Segment[] {
  const cut = MIN_SEGMENT_MS + Math.floor(rng.next() * (totalMs - 2 * MIN_SEGMENT_MS));
  const child = merged(withoutSlivers([...slice(a, 0, cut), ...slice(b, cut, totalMs)]));
  return child.length <= MAX_SEGMENTS ? child : a.map((s) => ({ ...s }));
}

/** A piece a cut left under the minimum length joins its neighbour (the one before, or after if first). */
function withoutSlivers(segments: readonly Segment[]): Segment[] {
  const out: Segment[] = [];
  let carried = 0;
  for (const s of segments) {
    if (s.ms >= MIN_SEGMENT_MS) {
      out.push({ ms: s.ms + carried, mbps: s.mbps });
      carried = 0;
    } else if (out.length > 0) out[out.length - 1].ms += s.ms;
    else carried += s.ms;
  }
  return out;
}

/** The part of a segment list between two moments. */
function slice(segments: readonly Segment[], from: number, to: number): Segment[] {
  const out: Segment[] = [];
  let t = 0;
  for (const s of segments) {
    const start = Math.max(t, from);
    const end = Math.min(t + s.ms, to);
    if (end > start) out.push({ ms: end - start, mbps: s.mbps });
    t += s.ms;
  }
  return out;
}

/** Segments as text, `ms@mbps` joined by commas ("2000@12,500@0"): the share link's and the file's name for them. */
export const formatSegments = (segments: readonly Segment[]) => segments.map((s) => `${s.ms}@${s.mbps}`).join(',');

/** Reads `formatSegments`' text back; null when it is not one. */
export function parseSegments(text: string): Segment[] | null {
  const parts = text.split(',');
  if (parts.length === 0 || parts.length > MAX_SEGMENTS * 4) return null;
  const out: Segment[] = [];
  for (const p of parts) {
    const m = /^(\d{1,7})@(\d{1,3}(?:\.\d{1,2})?)$/.exec(p);
    if (!m || Number(m[1]) < 1 || Number(m[2]) > MAX_MBPS) return null;
    out.push({ ms: Number(m[1]), mbps: Number(m[2]) });
  }
  return out;
}

/** What a segment trace is called where a trace is named (a run's spec, the CLI's --trace): its segments in the name. */
export const SEGMENTS_PREFIX = 'segments:';
export const segmentsName = (segments: readonly Segment[]) => SEGMENTS_PREFIX + formatSegments(segments);

/**
 * The trace a `segments:…` name stands for, made on the spot (it is never a file); null for any other name.
 * A damaged one (a share link cut short) is an error that says what it should look like.
 */
export function namedSegmentsTrace(name: string): Trace | null {
  if (!name.startsWith(SEGMENTS_PREFIX)) return null;
  const segments = parseSegments(name.slice(SEGMENTS_PREFIX.length));
  if (!segments) throw new TraceError(`${name.slice(0, 60)} is not a trace of segments: it should read like segments:2000@12.5,500@0 (ms@Mbit/s, at most ${MAX_MBPS})`);
  return segmentsTrace(segments, name);
}
