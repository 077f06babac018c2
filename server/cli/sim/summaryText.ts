import type { Summary } from '../../../shared/metrics/summary.ts';
import type { ScenarioSpec } from '../../../shared/scenarios/spec.ts';
import { fixed, significant } from '../../../shared/text/figures.ts';

/** One run's summary, the spec it ran and how long the model took. */
export interface SimOutput {
  summary: Summary;
  spec: ScenarioSpec;
  wallMs: number;
}

/** The contest's scores: throughput, the delays, power and score, and the omniscient point. */
function contestLines(s: Summary): string[] {
  const a = s.all;
  const lines = [
    `throughput ${fixed(a.throughputMbps)} Mbit/s · delay95 (signal) ${fixed(a.delay95, 0)} ms · queueing p95 ${fixed(a.queueDelay95, 0)} ms · per-packet one-way p95 ${fixed(a.oneWay95, 0)} ms · self-inflicted p95 ${fixed(s.delays.selfInflicted95 ?? NaN, 0)} ms`,
    `power ${significant(a.power)} · score ln(tput/delay95) ${fixed(a.score, 3)}`,
  ];
  if (s.omniscient) lines.push(`omniscient: ${fixed(s.omniscient.throughputMbps)} Mbit/s at ${fixed(s.omniscient.delay95, 0)} ms`);
  return lines;
}

/** A flow's result: the reliable transfer's or the offset fetch's; a link's share only beside other flows. */
function flowLine(fl: Summary['flows'][number], shared: boolean): string | null {
  const head = `flow ${fl.flow + 1} (${fl.scheme}${fl.jittered ? ', ACKs jittered' : ''})`;
  if (fl.reliable) {
    const r = fl.reliable;
    return `${head}: ${r.exact ? 'exact' : 'NOT EXACT'} · ${fixed(r.seconds, 3)} s · goodput ${fixed(r.goodputMbps, 3)} Mbit/s · wire/file ${fixed(r.overhead, 3)} · ${r.retransmissions} retransmissions · ${r.grade?.label ?? ''}`;
  }
  if (fl.offset) {
    const o = fl.offset;
    return `${head}: Result ${o.result} · Time ${o.timeMs} ms (bound ${fixed(o.boundMs, 0)} ms) · Penalty ${o.penalty} · ${o.requests} requests · ${o.duplicates} duplicates · ${o.squishes} squishes · MD5 ${o.md5}`;
  }
  return shared ? `${head}: ${fixed(fl.link.throughputMbps)} Mbit/s · delay95 ${fixed(fl.link.delay95, 0)} ms` : null;
}

/** A run's summary as the tool prints it. */
export function summaryText(out: SimOutput): string {
  const s = out.summary;
  const lines = [`${s.workload} · seed ${s.seed} · ${fixed(s.endMs / 1000, 1)} s simulated in ${fixed(out.wallMs, 1)} ms · ${s.events} events`];
  if (s.workload === 'contest') lines.push(...contestLines(s));
  for (const fl of s.flows) {
    const line = flowLine(fl, s.flows.length > 1);
    if (line !== null) lines.push(line);
  }
  return lines.join('\n');
}
