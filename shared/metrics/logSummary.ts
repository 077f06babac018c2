import type { EventLog } from '../log/eventLog.ts';
import { K } from '../log/kinds.ts';
import { DEFAULT_POLICY } from '../offset/policy.ts';
import type { LiveRun, ScenarioSpec } from '../scenarios/spec.ts';
import type { Trace } from '../trace/mahimahi.ts';
import type { FlowOutcome, RunFacts } from './outcome.ts';
import type { LinkMetrics } from './linkMetrics.ts';
import { summarize, type Summary } from './summary.ts';

/** A live fetch is an offset run against the server's policy (the course's unless it said), over no simulated link. */
function liveFacts(live: LiveRun['live'] | null, endMs: number): RunFacts['spec'] {
  return {
    workload: 'offset',
    seed: 0,
    durationMs: endMs,
    link: { kind: 'rate', mbps: 0, delayMs: 0, once: false, forward: { loss: 0 } },
    offset: { policy: { ...(live?.policy ?? DEFAULT_POLICY), variable: live?.variable ?? false } },
  };
}

/**
 * A summary for a run known only by its log (an imported CSV, a live fetch): the outcomes a log can tell
 * — when each flow finished, and for offset fetches the server's verdict, Time and Penalty from the
 * `done` row — go through the same summarize as a simulated run.
 */
export function summarizeLog(log: EventLog, spec: ScenarioSpec | LiveRun | null, endMs: number, trace: Trace | null): Summary {
  const c = log.columns;
  let flows = 0;
  for (let i = 0; i < log.length; i++) flows = Math.max(flows, c.flow[i] + 1);
  const simulated = spec && 'workload' in spec ? spec : null;
  const facts = simulated ?? liveFacts(spec && 'live' in spec ? spec.live : null, endMs);
  const outcomes: FlowOutcome[] = Array.from({ length: Math.max(1, flows) }, (_, f) => ({
    flow: f,
    scheme: simulated?.flows[f]?.scheme ?? (spec && 'live' in spec ? spec.live.scheme : 'unknown'),
    startMs: simulated?.flows[f]?.startMs ?? 0,
    finishedAt: -1,
    exact: null,
    bytesOnWire: 0,
    retransmissions: 0,
    fileBytes: simulated?.flows[f]?.bytes ?? 0,
    offset: null,
  }));
  readOutcomes(log, facts.workload, outcomes);
  const summary = summarize({ spec: facts, log, flows: outcomes, endMs, trace });
  return senderOnly(log) ? withoutBottleneck(summary) : summary;
}

/**
 * Whether the log holds the sender's rows alone (a pcap or qlog capture on the sender's host): what left
 * the bottleneck is then unknown, not nothing. A simulated run logs every packet's fate at the bottleneck
 * (an arrival, or a drop), so its log is never one.
 */
function senderOnly(log: EventLog): boolean {
  const n = log.kindCounts();
  return n[K.send] + n[K.ack] > 0 && n[K.enqueue] + n[K.depart] + n[K.drop] + n[K.reply] === 0;
}

/** A summary whose bottleneck figures are unknown: throughput, drops and what is made of them, as the delays already are. */
function withoutBottleneck(s: Summary): Summary {
  const unknown = (m: LinkMetrics): LinkMetrics => ({ ...m, throughputMbps: NaN, packetsDelivered: NaN, power: NaN, score: NaN, drops: NaN });
  return { ...s, all: unknown(s.all), flows: s.flows.map((f) => ({ ...f, link: unknown(f.link) })) };
}

/** Fills in what the log's rows tell of each flow's outcome. */
function readOutcomes(log: EventLog, workload: RunFacts['spec']['workload'], outcomes: FlowOutcome[]): void {
  const c = log.columns;
  const requests = new Array(outcomes.length).fill(0);
  // The file's size as far as the log shows it: the end of the furthest chunk replied.
  const fileEnd = new Array(outcomes.length).fill(0);
  for (let i = 0; i < log.length; i++) {
    const f = c.flow[i];
    const o = outcomes[f];
    if (c.kind[i] === K.send) requests[f]++;
    if (c.kind[i] === K.reply) fileEnd[f] = Math.max(fileEnd[f], c.seq[i] + c.bytes[i]);
    if (c.kind[i] === K.retransmit) o.retransmissions++;
    if ((c.kind[i] === K.send || c.kind[i] === K.retransmit) && workload === 'reliable') o.bytesOnWire += c.bytes[i];
    if (c.kind[i] !== K.done) continue;
    o.finishedAt = c.t[i];
    if (workload === 'offset') o.offset = fetchSoFar(fileEnd[f], requests[f], c.seq[i] === 1, c.value[i], c.window[i]);
  }
  // A fetch still under way (or stopped) shows the exercise's figures from its first reply, verdict pending.
  // Its size is not known yet (the furthest chunk so far is not the file's end), nor is the bound it sets.
  if (workload === 'offset') for (const o of outcomes) if (!o.offset && fileEnd[o.flow] > 0) o.offset = fetchSoFar(NaN, requests[o.flow], null, NaN, NaN);
}

function fetchSoFar(size: number, requests: number, result: boolean | null, serverTime: number, penalty: number): NonNullable<FlowOutcome['offset']> {
  return { size, md5: '', result, serverTime, penalty, elapsed: NaN, requests, duplicates: 0, squishedReplies: 0, errors: [] };
}
