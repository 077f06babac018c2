import { csvFormatRows } from 'd3-dsv';
import { CSV_VERSION } from '../csv/trace.ts';
import { EventLog } from '../log/eventLog.ts';
import { ESTIMATE, K } from '../log/kinds.ts';
import { FormatError } from './errors.ts';
import type { Run } from './runFacts.ts';

/** One interval of one stream, as iperf3 -J reports the kernel's TCP_INFO at its end. */
export interface Iperf3Interval {
  flow: number;
  startMs: number;
  endMs: number;
  bytes: number;
  bitsPerSecond: number;
  retransmits: number;
  /** snd_cwnd in bytes (iperf3 multiplies the kernel's packets by snd_mss), the smoothed RTT in ms. */
  cwndBytes: number;
  rttMs: number;
}

export interface Iperf3Test {
  intervals: Iperf3Interval[];
  /** Bytes a packet of the window stands for: the path MTU less IPv4, TCP and timestamp headers (Linux's snd_mss). */
  mss: number;
  /** The sender's congestion control (Linux's name: cubic, reno, bbr). */
  scheme: string | null;
}

type Json = Record<string, unknown>;
const HEADERS = 52;

/** Reads iperf3's `-J` output of a TCP test; errors name the field at fault. */
export function parseIperf3(text: string): Iperf3Test {
  let doc: Json;
  try {
    doc = JSON.parse(text) as Json;
  } catch (e) {
    throw new FormatError(`iperf3 JSON: not JSON (${(e as Error).message})`);
  }
  if (typeof doc !== 'object' || doc === null) throw new FormatError('iperf3 JSON: the file must be one JSON object');
  if (typeof doc.error === 'string' && !(Array.isArray(doc.intervals) && doc.intervals.length > 0)) throw new FormatError(`iperf3 JSON: the test failed ("${doc.error}")`);
  const start = (doc.start ?? {}) as Json;
  const protocol = ((start.test_start ?? {}) as Json).protocol;
  if (protocol !== undefined && protocol !== 'TCP') throw new FormatError(`iperf3 JSON: start.test_start.protocol is ${JSON.stringify(protocol)}; only TCP tests carry a window and RTT`);
  if (!Array.isArray(doc.intervals) || doc.intervals.length === 0) throw new FormatError('iperf3 JSON: "intervals" must be a non-empty list (is this iperf3 -J output?)');
  const intervals: Iperf3Interval[] = [];
  let pmtu = 0;
  doc.intervals.forEach((interval, i) => {
    const streams = (interval as Json | null)?.streams;
    if (!Array.isArray(streams)) throw new FormatError(`iperf3 JSON: intervals[${i}].streams must be a list`);
    streams.forEach((s: Json, k) => {
      const at = `intervals[${i}].streams[${k}]`;
      const num = (name: string, optional = false) => {
        const v = s?.[name];
        if (v === undefined && optional) return Number.NaN;
        const cwndHint = name === 'snd_cwnd' ? ': the receiver’s output has none, use the sender’s (iperf3 -c … -J, without -R)' : '';
        if (v === undefined) throw new FormatError(`iperf3 JSON: ${at}.${name} is missing${cwndHint}`);
        if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
          throw new FormatError(
            `iperf3 JSON: ${at}.${name} must be a number not below 0 (got ${JSON.stringify(v)})${name === 'snd_cwnd' ? ': the receiver’s file has none, use the sender’s (iperf3 -c … -J)' : ''}`,
          );
        return v;
      };
      if (s?.sender === false) throw new FormatError(`iperf3 JSON: ${at} is the receiver's side, which has no window: use the sender's output (iperf3 -c … -J, without -R)`);
      pmtu = Math.max(pmtu, num('pmtu', true) || 0);
      intervals.push({
        flow: k,
        startMs: num('start') * 1000,
        endMs: num('end') * 1000,
        bytes: num('bytes'),
        bitsPerSecond: num('bits_per_second'),
        retransmits: num('retransmits'),
        cwndBytes: num('snd_cwnd'),
        rttMs: num('rtt') / 1000,
      });
    });
  });
  const end = (doc.end ?? {}) as Json;
  const mss = pmtu > HEADERS ? pmtu - HEADERS : Number(start.tcp_mss_default) || 1448;
  return { intervals, mss, scheme: typeof end.sender_tcp_congestion === 'string' ? end.sender_tcp_congestion : null };
}

/** The test as the project's per-interval summary CSV, the window in packets (of the MSS) and in bytes, with the retransmissions. */
export function iperf3IntervalCsv(test: Iperf3Test): string {
  const spans = test.intervals.map((v) => v.endMs - v.startMs).sort((a, b) => a - b);
  const intervalMs = Math.round(spans[spans.length >> 1]);
  const n = (v: number) => String(Math.round(v * 1000) / 1000);
  const rows = [['t_ms', 'flow', 'throughput_mbps', 'queue_delay_ms', 'rtt_ms', 'window', 'drops', 'timeouts', 'window_bytes', 'retransmits']];
  for (const v of test.intervals) rows.push([n(v.startMs), String(v.flow), n(v.bitsPerSecond / 1e6), '', n(v.rttMs), n(v.cwndBytes / test.mss), '', '', String(v.cwndBytes), String(v.retransmits)]);
  return `# ${CSV_VERSION} intervals ${intervalMs} ms (iperf3, ${test.scheme ?? 'unknown congestion control'}, ${test.mss}-byte packets)\n${csvFormatRows(rows)}\n`;
}

/** Slices of an interval the throughput is spread over, so that the page's bins see it evenly. */
const SLICE_MS = 10;

/**
 * The test as a run the page draws: per slice of each interval, a send (of one MSS, where the sequence
 * has got to) and a departure carrying the slice's bytes (the queueing delay taken as RTT less the least
 * RTT seen); at each interval's end an ACK with the kernel's
 * RTT and window (in packets of the MSS), its smoothed RTT as an estimate, and a loss per retransmission.
 */
export function iperf3Run(test: Iperf3Test): Run {
  const rows: [t: number, kind: number, flow: number, seq: number, bytes: number, value: number, window: number][] = [];
  const minRtt = Math.min(...test.intervals.map((v) => v.rttMs).filter((r) => r > 0));
  const sent = new Map<number, number>();
  for (const v of test.intervals) {
    const window = v.cwndBytes / test.mss;
    const queue = Math.max(0, v.rttMs - minRtt);
    const slices = Math.max(1, Math.round((v.endMs - v.startMs) / SLICE_MS));
    let packets = sent.get(v.flow) ?? 0;
    for (let s = 1; s <= slices; s++) {
      const t = v.startMs + ((v.endMs - v.startMs) * s) / slices;
      const bytes = Math.round((v.bytes * s) / slices) - Math.round((v.bytes * (s - 1)) / slices);
      packets += bytes / test.mss;
      rows.push([t, K.send, v.flow, Math.floor(packets), test.mss, window, window], [t, K.depart, v.flow, Math.floor(packets), bytes, queue, 0]);
    }
    sent.set(v.flow, packets);
    const seq = Math.floor(packets);
    rows.push([v.endMs, K.ack, v.flow, seq, 0, v.rttMs, window], [v.endMs, K.estimate, v.flow, ESTIMATE.srtt, 0, v.rttMs, window]);
    for (let r = 0; r < Math.min(v.retransmits, 10_000); r++) rows.push([v.endMs, K.loss, v.flow, seq, 0, window, window]);
  }
  // Streams report the same intervals one after another: the log runs in time order.
  rows.sort((a, b) => a[0] - b[0]);
  const log = new EventLog(Math.max(16, rows.length));
  for (const r of rows) log.push(...r);
  return { log, spec: null };
}
