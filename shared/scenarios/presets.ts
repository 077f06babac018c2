import { NO_IMPAIRMENTS, type ImpairmentSpec } from '../link/impairments.ts';
import { NETEM_LIMIT } from '../link/netem.ts';
import type { LinkModel } from '../link/spec.ts';
import { DEFAULT_POLICY } from '../offset/policy.ts';
import type { FlowSpec, LinkSpec, ScenarioSpec } from './spec.ts';

/**
 * The bundled cellular traces: data cross `<name>.down`, ACKs the matching uplink (every bundled uplink
 * is at least as long as its downlink, so ACKs flow to the end of a single pass).
 */
export const BUNDLED_TRACES: readonly { name: string; title: string; ack: string; ackMbps: number; seconds: number }[] = [
  { name: 'Verizon-LTE-short', title: 'Verizon LTE (140 s, the contest trace)', ack: 'Verizon-LTE-short.up', ackMbps: 0, seconds: 140 },
  { name: 'TMobile-LTE-short', title: 'T-Mobile LTE (140 s)', ack: 'TMobile-LTE-short.up', ackMbps: 0, seconds: 140 },
  { name: 'ATT-LTE-driving-2016', title: 'AT&T LTE driving 2016 (120 s)', ack: 'ATT-LTE-driving-2016.up', ackMbps: 0, seconds: 120 },
  { name: 'ATT-LTE-driving', title: 'AT&T LTE driving (786 s)', ack: 'ATT-LTE-driving.up', ackMbps: 0, seconds: 786 },
  // No uplink of this drive is bundled: its ACKs cross a constant 12 Mbit/s link (a trace of only `1`).
  { name: 'TMobile-LTE-driving', title: 'T-Mobile LTE driving (475 s; ACKs at a constant 12 Mbit/s)', ack: '', ackMbps: 12, seconds: 475 },
  { name: 'TMobile-UMTS-driving', title: 'T-Mobile 3G (928 s)', ack: 'TMobile-UMTS-driving.up', ackMbps: 0, seconds: 928 },
  { name: 'Verizon-EVDO-driving', title: 'Verizon 3G EVDO (1062 s)', ack: 'Verizon-EVDO-driving.up', ackMbps: 0, seconds: 1062 },
];

/** The files a bundled trace reads, its downlink and its uplink if it has one (none for any other name). */
export function bundledTraceFiles(trace: string): string[] {
  const t = BUNDLED_TRACES.find((b) => b.name === trace);
  return t ? [`${trace}.down`, ...(t.ack ? [t.ack] : [])] : [];
}

/**
 * The bundled traces that read any of `withheldFiles` (the files a class contest holds out, which its relay
 * never serves): a page cannot run them.
 */
export const tracesWithheld = (withheldFiles: readonly string[]): string[] => BUNDLED_TRACES.map((t) => t.name).filter((name) => bundledTraceFiles(name).some((f) => withheldFiles.includes(f)));

export const flow = (scheme: string, params: FlowSpec['params'] = {}, startMs = 0, bytes: number | null = null): FlowSpec => ({
  scheme,
  params,
  startMs,
  bytes,
});

const symmetric = (impair: ImpairmentSpec) => ({ forward: { ...impair }, reverse: { ...impair } });

export function rateLink(mbps: number, delayMs: number, impair: ImpairmentSpec = NO_IMPAIRMENTS, queue: LinkSpec['queue'] = { kind: 'infinite' }): LinkSpec {
  return { kind: 'rate', trace: '', ackTrace: '', mbps, ackMbps: mbps, once: false, delayMs, queue, ...symmetric(impair) };
}

/**
 * The contest: data over `<trace>.down`, ACKs over its uplink (or a stated constant rate), 20 ms each
 * way, an infinite queue, one pass of the trace, every packet ACKed.
 */
export function contest(trace = 'Verizon-LTE-short', flows: FlowSpec[] = [flow('aimd')], seed = 1): ScenarioSpec {
  const t = BUNDLED_TRACES.find((b) => b.name === trace);
  const seconds = t?.seconds ?? 140;
  return {
    workload: 'contest',
    link: {
      kind: 'trace',
      trace: `${trace}.down`,
      ackTrace: t?.ack ?? `${trace}.up`,
      mbps: 0,
      ackMbps: t?.ackMbps ?? 0,
      once: true,
      delayMs: 20,
      queue: { kind: 'infinite' },
      ...symmetric(NO_IMPAIRMENTS),
    },
    flows,
    seed,
    durationMs: seconds * 1000,
    offset: null,
  };
}

/**
 * The path to the relay's offset servers, which is loopback: a gigabit each way and 0.05 ms of delay each
 * way, the ~0.1 ms UDP round trip `/api/relay` measures on a typical machine (it reports its own as
 * `loopbackRttMs`). Simulated and live runs of a scheme then see the same path.
 */
export const LOOPBACK_MBPS = 1000;
export const LOOPBACK_ONE_WAY_MS = 0.05;

/** The offset-server exercise: a client fetching a 1 MB file from the server over the loopback path. */
export function offsetServer(variable: boolean, flows: FlowSpec[] = [flow('burst-aimd', {}, 0, 1_000_000)], seed = 1): ScenarioSpec {
  return {
    workload: 'offset',
    link: rateLink(LOOPBACK_MBPS, LOOPBACK_ONE_WAY_MS),
    flows,
    seed,
    durationMs: 300_000,
    offset: { policy: { ...DEFAULT_POLICY, variable }, fileSeed: seed },
  };
}

// --- the reliable-transport test matrix ---

export const FILE_SIZES = { small: 1_000, medium: 10_000, large: 100_000, huge: 1_000_000 } as const;
export type FileSize = keyof typeof FILE_SIZES;

export interface MatrixRow {
  group: 'basic' | 'advanced' | 'performance';
  name: string;
  size: FileSize;
  /** Mbit/s */
  bw: number;
  /** One-way latency, ms. */
  latency: number;
  /** Percentages. */
  drop: number;
  duplicate: number;
  reorder: number;
  /** Jitter ±ms. */
  delay: number;
  /** The course harness's timeout for the row: past it the test fails (virtual ms). */
  timeoutMs: number;
}

const row = (group: MatrixRow['group'], size: FileSize, bw: number, latency: number, extra: Partial<MatrixRow> = {}): MatrixRow => {
  const r: MatrixRow = { group, name: '', size, bw, latency, drop: 0, duplicate: 0, reorder: 0, delay: 0, timeoutMs: 30_000, ...extra };
  const parts = [`${size}`, `${bw} Mbit/s`, `${latency} ms`];
  if (r.drop) parts.push(`${r.drop}% drop`);
  if (r.duplicate) parts.push(`${r.duplicate}% duplicate`);
  if (r.reorder) parts.push(`${r.reorder}% reorder`);
  if (r.delay) parts.push(`delay ${r.delay}`);
  r.name = parts.join(', ');
  return r;
};

export const MATRIX: readonly MatrixRow[] = [
  ...(['small', 'medium'] as const).flatMap((s) => [row('basic', s, 1, 10), row('basic', s, 0.1, 10), row('basic', s, 0.1, 50)]),
  row('basic', 'large', 1, 10),
  row('basic', 'large', 0.5, 10),
  row('basic', 'large', 0.1, 500),
  row('advanced', 'small', 1, 10, { duplicate: 100 }),
  row('advanced', 'medium', 1, 10, { reorder: 50, drop: 10 }),
  row('advanced', 'medium', 1, 10, { drop: 50 }),
  row('advanced', 'medium', 1, 10, { delay: 50, duplicate: 25 }),
  row('advanced', 'medium', 5, 10, { delay: 5, duplicate: 5, drop: 5 }),
  row('advanced', 'large', 1, 10, { delay: 10, duplicate: 10 }),
  // the harness gives the last advanced test twice the usual 30 s
  row('advanced', 'large', 10, 10, { delay: 1, drop: 1, duplicate: 1, timeoutMs: 60_000 }),
  row('performance', 'small', 5, 10),
  row('performance', 'huge', 5, 10),
  row('performance', 'large', 5, 10, { drop: 10 }),
  row('performance', 'large', 5, 50, { drop: 10 }),
  row('performance', 'large', 10, 25, { drop: 10, duplicate: 10, delay: 20 }),
];

/**
 * One matrix row as a run: impairments on both directions, as an impaired interface would apply them;
 * the run stops at the row's timeout, and an unfinished transfer fails. `model` 'netem' runs it on Linux's
 * netem, as the course's harness does on its loopback interface.
 */
export function matrixRun(r: MatrixRow, scheme = 'reno', params: FlowSpec['params'] = {}, seed = 1, model: LinkModel = 'mahimahi'): ScenarioSpec {
  const impair: ImpairmentSpec = { loss: r.drop / 100, burst: null, duplicate: r.duplicate / 100, reorder: r.reorder / 100, jitter: r.delay };
  const link = rateLink(r.bw, r.latency, impair, { kind: 'packets', limit: 100 });
  return {
    workload: 'reliable',
    // netem as a harness sets it on lo: one qdisc both ways, tc's limit of 1000 packets
    link: model === 'netem' ? { ...link, model, limit: NETEM_LIMIT } : link,
    flows: [flow(scheme, params, 0, FILE_SIZES[r.size])],
    seed,
    durationMs: r.timeoutMs,
    offset: null,
  };
}

// --- shared-bottleneck scenarios ---

export interface SharedPreset {
  id: string;
  title: string;
  /** One-way delay, ms. */
  delayMs: number;
  mbps: number;
  /** Loss, percent. */
  lossPercent: number;
  /** Queue, megabits. */
  queueMbit: number;
  /** File sizes of the staggered flows, bytes. */
  sizes: number[];
}

export const SHARED_PRESETS: readonly SharedPreset[] = [
  { id: '90s', title: "90's Internet", delayMs: 100, mbps: 0.0566, lossPercent: 1, queueMbit: 50, sizes: [20_000, 50_000, 100_000] },
  { id: 'cdn', title: 'User to CDN', delayMs: 15, mbps: 100, lossPercent: 0.001, queueMbit: 500, sizes: [2e6, 5e6, 10e6] },
  { id: 'cross-country', title: 'Cross-country', delayMs: 100, mbps: 1000, lossPercent: 0.00001, queueMbit: 1000, sizes: [20e6, 50e6, 100e6] },
  { id: 'datacenter', title: 'Data center', delayMs: 1, mbps: 10_000, lossPercent: 0, queueMbit: 50, sizes: [50e6, 100e6, 200e6] },
  { id: 'moon', title: 'Moon', delayMs: 1500, mbps: 1, lossPercent: 0, queueMbit: 100, sizes: [200_000, 500_000, 1_000_000] },
];

/** Flows of `schemes` sharing the preset's link, each starting two RTTs after the one before. */
export function sharedBottleneck(p: SharedPreset, schemes: string[] = ['reno', 'reno', 'reno'], seed = 1): ScenarioSpec {
  const impair: ImpairmentSpec = { ...NO_IMPAIRMENTS, loss: p.lossPercent / 100 };
  return {
    workload: 'reliable',
    link: { ...rateLink(p.mbps, p.delayMs, NO_IMPAIRMENTS, { kind: 'bytes', limit: (p.queueMbit * 1e6) / 8 }), forward: impair },
    flows: schemes.map((s, i) => flow(s, {}, i * 4 * p.delayMs, p.sizes[i % p.sizes.length])),
    seed,
    durationMs: 3_600_000,
    offset: null,
  };
}
