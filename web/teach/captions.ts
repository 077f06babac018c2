import { LINK_PARAMS, linkValues, unusedLinkParams } from '../../shared/link/params.ts';
import type { ParamSpec, ParamValues } from '../../shared/controllers/types.ts';
import type { LinkSpec } from '../../shared/scenarios/spec.ts';
import { bitrate } from '../charts/format.ts';
import type { RunView } from '../worker/protocol.ts';

/**
 * The lesson in words: one caption under the plane and under each chart row, computed from the two runs
 * shown, so the words change with the runs. Pure: the tests give it hand-made facts.
 */

/** What a caption needs to know of one run. */
export interface RunFacts {
  /** The scheme, as people read it ("AIMD"). */
  name: string;
  throughputMbps: number;
  delay95: number;
  queueDelay95: number;
  /** Largest window the controller held, packets. */
  maxWindow: number;
  timeouts: number;
  /** Losses the sender detected from ACKs before its timer (three later packets ACKed, three duplicate ACKs). */
  losses: number;
  drops: number;
  sends: number;
  /** Time of the last packet sent, and the run's end, ms. */
  lastSendMs: number;
  endMs: number;
  /** The link's own capacity over the run (a constant rate, or the omniscient sender's throughput), Mbit/s, if known. */
  capacityMbps: number | null;
  /** Whether the plane draws the omniscient sender's star (a trace-driven link). */
  omniscient: boolean;
  /** The bandwidth–delay product: capacity × minimum RTT, packets, if known. */
  bdp: number | null;
  /** The link the run was made on, when the run says (an imported run brings its own). */
  link?: LinkSpec | null;
  /** What the scheme calls its timer's firing, where that is its design and no loss (Scheme.timer). */
  timer?: string;
}

export type CaptionRow = 'plane' | 'sequence' | 'window' | 'throughput' | 'delay' | 'queue';

/** capacity × minimum RTT in packets: what fills the pipe with no queue. */
export function bdpPackets(capacityMbps: number, minRttMs: number, packetBytes: number): number {
  return (capacityMbps * 1e6 * (minRttMs / 1000)) / (8 * packetBytes);
}

/** Why a run shows nothing to learn from, if it does not: a window stuck at 1, a stalled sender, an idle link. */
export function degenerate(f: RunFacts): string | null {
  // a file of the bottleneck alone (a link log) holds no sends, yet packets went through
  if (f.sends === 0) return f.throughputMbps > 0 ? null : `${f.name} sent nothing`;
  if (f.maxWindow <= 1) return `${possessive(f.name)} window is stuck at 1 packet: it sends one packet per round trip`;
  const quiet = f.endMs - f.lastSendMs;
  if (quiet > Math.max(2000, 0.2 * f.endMs)) return `${f.name} stalled: it sent nothing in the last ${(quiet / 1000).toFixed(1)} s`;
  if (f.capacityMbps !== null && f.capacityMbps > 0 && f.throughputMbps < 0.05 * f.capacityMbps) {
    return `the link sits idle under ${f.name}: ${share(f.throughputMbps, f.capacityMbps)} of its capacity used`;
  }
  return null;
}

/**
 * How the links of two runs differ, in words ("delay 50 ms against 20 ms"), parameter by parameter as the
 * sidebar names them (linkValues reads both alike, however an imported run's spec was written); empty
 * when they are one link. A parameter either link makes no use of (a rate on a trace's link) is left out.
 */
export function linkDifferences(a: LinkSpec, b: LinkSpec): string[] {
  // two rates that read alike rounded are named exactly
  const exact = a.kind === 'rate' && b.kind === 'rate' && bitrate(a.mbps) === bitrate(b.mbps);
  const bottleneck = (l: LinkSpec) => (l.kind === 'trace' ? `the trace ${l.trace}` : exact ? `${l.mbps} Mbit/s` : bitrate(l.mbps));
  const sameBottleneck = a.kind === 'trace' && b.kind === 'trace' ? a.trace === b.trace : a.kind === b.kind && a.mbps === b.mbps;
  const out = sameBottleneck ? [] : [`${bottleneck(a)} against ${bottleneck(b)}`];
  if (a.kind === 'trace' && b.kind === 'trace' && a.ackTrace !== b.ackTrace) out.push(`the ACK trace ${a.ackTrace} against ${b.ackTrace}`);
  const [va, vb] = [linkValues(a), linkValues(b)];
  const unused = new Set([...unusedLinkParams(a).keys(), ...unusedLinkParams(b).keys(), 'bandwidth']);
  if (a.kind !== 'trace' || b.kind !== 'trace') unused.add('loop');
  // a queue's limit counts what its queue holds: packets on one side may face bytes on the other
  const unitOf = (p: ParamSpec, v: ParamValues) => (p.kind === 'choice' ? '' : p.name === 'queueLimit' ? ` ${v.queue}` : ` ${p.unit}`);
  for (const p of LINK_PARAMS) {
    if (unused.has(p.name) || va[p.name] === vb[p.name]) continue;
    out.push(`${p.name} ${va[p.name]}${unitOf(p, va)} against ${vb[p.name]}${unitOf(p, vb)}`);
  }
  return out;
}

/**
 * A warning when A and B ran on different links (an imported run brings its own): their figures do not
 * compare. Not while a side is `settling` (its run for a changed link under way while its last one shows).
 */
function linksApart(a: RunFacts | null, b: RunFacts | null, settling: boolean): string[] {
  const apart = a?.link && b?.link && !settling ? linkDifferences(a.link, b.link) : [];
  return apart.length ? [`A and B ran on different links (${apart.join('; ')}), so their figures do not compare like for like`] : [];
}

const share = (part: number, whole: number) => `${Math.round((100 * part) / whole)}%`;
/** A delay, or a dash (as on the cards) for a run that delivered nothing to measure it from. */
const ms = (v: number) => (Number.isFinite(v) ? `${Math.round(v)} ms` : '—');
/** Whether the run's file holds the sender alone (a pcap or qlog capture): its bottleneck figures are unknown, not zero. */
const senderAlone = (f: RunFacts) => Number.isNaN(f.throughputMbps);
const possessive = (name: string) => (name.endsWith('s') ? `${name}'` : `${name}'s`);
const mbps = (v: number) => `${v.toFixed(2)} Mbit/s`;
const packets = (n: number) => `${n.toFixed(0)} packet${n.toFixed(0) === '1' ? '' : 's'}`;
/** The contest score as the cards show it (three decimals): two runs that read the same are a tie. NaN: no score. */
const score = (f: RunFacts) => Math.round(1000 * Math.log(f.throughputMbps / f.delay95));
const scored = (f: RunFacts) => Number.isFinite(score(f));

/** Each run's headline, then how the second compares with the first. */
function planeCaption(runs: RunFacts[]): string {
  const lines = runs.map((f) => {
    if (senderAlone(f)) return `${f.name}: its file holds the sender alone, not the bottleneck, so it has no throughput, delay or score.`;
    if (!Number.isFinite(f.delay95)) return `${f.name} delivered no packet: it has no delay and no score.`;
    const cap = f.capacityMbps ? ` (${share(f.throughputMbps, f.capacityMbps)} of the link)` : '';
    return `${f.name}: ${mbps(f.throughputMbps)}${cap} at delay95 ${ms(f.delay95)}.`;
  });
  if (runs.length === 2 && runs.some(scored)) {
    lines.push(comparison(runs[0], runs[1]), `Up and to the right is better (delay falls to the right)${runs.some((f) => f.omniscient) ? '; the star is the omniscient sender' : ''}.`);
  }
  return lines.join(' ');
}

/** Which of two runs scores higher (at least one has a score), or that they tie. */
function comparison(a: RunFacts, b: RunFacts): string {
  if (!scored(a) || !scored(b)) return `Only ${(scored(a) ? a : b).name} has a score.`;
  if (score(a) === score(b)) return `${a.name} and ${b.name} score the same (throughput ÷ delay95).`;
  const [better, other] = score(a) > score(b) ? [a, b] : [b, a];
  const head = `${better.name} scores higher:`;
  // Figures that read alike are not said to be more or less than each other: what differs is said instead.
  if (ms(better.delay95) === ms(other.delay95)) return `${head} ${atOneDelay(better, other)}.`;
  const lessDelay = better.delay95 < other.delay95;
  if (lessDelay && mbps(better.throughputMbps) === mbps(other.throughputMbps)) {
    return `${head} less delay (${ms(better.delay95)} against ${ms(other.delay95)}) at the same throughput (${mbps(better.throughputMbps)}).`;
  }
  // The usual trade: less delay for some of the throughput. A run can also win on both, or on throughput alone.
  if (!(other.throughputMbps > 0) || better.throughputMbps < other.throughputMbps) {
    const rate = other.throughputMbps > 0 ? ` at ${share(better.throughputMbps, other.throughputMbps)} of ${possessive(other.name)} throughput` : '';
    return `${head} ${ms(better.delay95)}${rate}.`;
  }
  if (lessDelay) return `${head} less delay (${ms(better.delay95)} against ${ms(other.delay95)}) and more throughput (${moreThan(better, other)}).`;
  return `${head} ${ms(better.delay95)}, with more throughput (${moreThan(better, other)}).`;
}

/** Why the better of two runs whose delays read alike scores higher: its throughput, or digits the figures round away. */
function atOneDelay(better: RunFacts, other: RunFacts): string {
  const delay = `the same delay (${ms(better.delay95)})`;
  if (mbps(better.throughputMbps) === mbps(other.throughputMbps)) {
    return `${delay} and throughput (${mbps(better.throughputMbps)}) as shown, so the two are apart only in digits the figures round away`;
  }
  if (better.throughputMbps > other.throughputMbps) return `more throughput (${moreThan(better, other)}) at ${delay}`;
  return `a delay under a millisecond shorter (${ms(better.delay95)} each, as shown) at ${share(better.throughputMbps, other.throughputMbps)} of ${possessive(other.name)} throughput`;
}

const moreThan = (better: RunFacts, other: RunFacts) => `${times(better.throughputMbps / other.throughputMbps)} ${possessive(other.name)}`;

/** How many times one throughput is another's: "363×", "2.5×" from twice on, "12% above" below, never "0% above". */
function times(ratio: number): string {
  if (ratio >= 2) return `${ratio >= 10 ? Math.round(ratio) : ratio.toFixed(1)}×`;
  const percent = Math.round(100 * (ratio - 1));
  return percent === 0 ? 'less than 1% above' : `${percent}% above`;
}

function windowCaption(runs: RunFacts[]): string {
  const bdp = runs.find((f) => f.bdp !== null)?.bdp;
  const pipe = bdp ? `The dashed line is the pipe, capacity × minimum RTT ≈ ${bdp.toFixed(0)} packets; window above it waits in the queue as added delay, or is dropped once the queue is full. ` : '';
  const each = runs.map((f) => {
    if (Number.isNaN(f.maxWindow)) return `${possessive(f.name)} file holds no window.`;
    const over = bdp ? ` (${(f.maxWindow / bdp).toFixed(1)}× the pipe)` : '';
    const detected = f.losses ? ` and ${f.losses} loss${f.losses === 1 ? '' : 'es'} detected from ACKs` : '';
    const timer = f.timer ? `${f.timeouts} × ${f.timer}, no loss` : `${f.timeouts} timeout${f.timeouts === 1 ? '' : 's'}`;
    return `${f.name} peaks at ${packets(f.maxWindow)}${over} with ${timer}${detected}.`;
  });
  return pipe + each.join(' ');
}

/** The captions of every row, for the runs shown (either may be missing while it runs). */
export function captions(a: RunFacts | null, b: RunFacts | null, settling = false): Record<CaptionRow, string> {
  // Two runs of one scheme are told apart by their side.
  const same = a !== null && b !== null && a.name === b.name;
  const runs = same
    ? [
        { ...a, name: `A · ${a.name}` },
        { ...b, name: `B · ${b.name}` },
      ]
    : [a, b].filter((f): f is RunFacts => f !== null);
  if (runs.length === 0) return { plane: '', sequence: '', window: '', throughput: '', delay: '', queue: '' };
  const warnings = [...linksApart(a, b, settling), ...runs.map(degenerate).filter((w): w is string => w !== null)];
  const warn = warnings.length ? `Look out: ${warnings.join('; ')}. ` : '';
  const list = (f: (r: RunFacts) => string) => runs.map(f).join('; ');
  return {
    plane: warn + planeCaption(runs),
    sequence: `Sends climb at the sending rate and ACKs follow one RTT later; a flat stretch is a stall. Drops: ${list((f) => `${f.name} ${Number.isNaN(f.drops) ? 'not known' : f.drops}`)}.`,
    window: warn + windowCaption(runs),
    throughput: `Throughput against what the link offered: ${list((f) => (senderAlone(f) ? `${f.name} not known (its file holds the sender alone)` : f.capacityMbps ? `${f.name} uses ${share(f.throughputMbps, f.capacityMbps)}` : `${f.name} ${mbps(f.throughputMbps)}`))}.`,
    delay: `Signal delay p95: ${list((f) => `${f.name} ${ms(f.delay95)}`)}. Time packets waited in the queue, p95: ${list((f) => `${f.name} ${ms(f.queueDelay95)}`)}.`,
    queue: `Packets waiting at the bottleneck: a standing queue is delay added to every packet behind it. Queueing p95: ${list((f) => `${f.name} ${ms(f.queueDelay95)}`)}.`,
  };
}

/** Largest y of interleaved (t, y) pairs (NaN when none is known: a file that holds no window), and the time of the last pair. */
function pairsMaxAndLast(d: Float64Array): { max: number; lastT: number; count: number } {
  let max = Number.NaN;
  for (let i = 1; i < d.length; i += 2) if (d[i] > max || (Number.isNaN(max) && Number.isFinite(d[i]))) max = d[i];
  return { max, lastT: d.length ? d[d.length - 2] : 0, count: d.length >> 1 };
}

/**
 * The facts of a run the page holds; the BDP from the link's round trip and the bytes per packet. A
 * constant-rate link's capacity is its rate (`linkMbps`); a trace's, what the omniscient sender gets.
 */
export function factsOf(view: RunView, name: string, minRttMs: number | null, packetBytes: number, linkMbps: number | null = null): RunFacts {
  const s = view.series;
  const all = view.summary.all;
  const omniscient = view.summary.omniscient ?? null;
  const capacityMbps = omniscient?.throughputMbps ?? linkMbps;
  const sends = pairsMaxAndLast(s.sends);
  return {
    name,
    throughputMbps: all.throughputMbps,
    delay95: all.delay95,
    queueDelay95: all.queueDelay95,
    maxWindow: pairsMaxAndLast(s.window).max,
    timeouts: s.timeouts.length >> 1,
    losses: s.losses.length >> 1,
    drops: all.drops,
    sends: sends.count,
    lastSendMs: sends.lastT,
    endMs: s.endMs,
    capacityMbps,
    omniscient: omniscient !== null,
    bdp: capacityMbps !== null && minRttMs !== null ? bdpPackets(capacityMbps, minRttMs, packetBytes) : null,
  };
}
