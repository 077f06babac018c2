import { EventLog } from '../log/eventLog.ts';
import { ESTIMATE, K } from '../log/kinds.ts';
import type { LiveRun, ScenarioSpec } from '../scenarios/spec.ts';
import { FormatError } from './errors.ts';
import type { Run } from './runFacts.ts';

type Json = Record<string, unknown>;
interface QlogEvent {
  time: number;
  name: string;
  data: Json;
  flow: number;
  where: string;
}

/** Event names of qlog 0.3 and of the current drafts, to the one name read here. */
const NAMES: Record<string, string> = {
  'transport:packet_sent': 'sent',
  'quic:packet_sent': 'sent',
  'transport:packet_received': 'received',
  'quic:packet_received': 'received',
  'recovery:metrics_updated': 'metrics',
  'quic:recovery_metrics_updated': 'metrics',
  'recovery:packet_lost': 'lost',
  'quic:packet_lost': 'lost',
  'recovery:loss_timer_updated': 'timer',
  'quic:loss_timer_updated': 'timer',
};

/**
 * Reads a qlog file: JSON text sequences (`.sqlog`, qlog 0.3 or the current drafts), or a JSON file with
 * `traces` (`.qlog`). Sent packets become sends (a stream offset sent before: retransmissions), received
 * ACK frames acks, received stream frames offset replies, lost packets losses, an expired timer a timeout;
 * the window and RTT come from `metrics_updated`, in packets of the flow's largest sent packet.
 */
export function decodeQlog(text: string): Run {
  const { header, events } = readRecords(text);
  const extra = (header.x_pipefill ?? {}) as { spec?: ScenarioSpec | LiveRun | null; cumulative_acks?: boolean; packet_bytes?: Record<string, number> };
  const units = new Map<number, number>();
  for (const e of events) {
    if (e.name !== 'sent') continue;
    const length = Number((e.data.raw as Json | undefined)?.length ?? 0);
    units.set(e.flow, Math.max(units.get(e.flow) ?? 0, Number(extra.packet_bytes?.[e.flow]) || length));
  }
  const log = new EventLog(Math.max(16, events.length));
  const readers = new Map<number, FlowReader>();
  for (const e of events) {
    let r = readers.get(e.flow);
    if (!r) readers.set(e.flow, (r = new FlowReader(log, e.flow, units.get(e.flow) || 1, extra.cumulative_acks === true)));
    r.read(e);
  }
  return { log, spec: extra.spec ?? null };
}

function readRecords(text: string): { header: Json; events: QlogEvent[] } {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') && !text.includes('\x1e')) {
    const whole = parse(trimmed, 'the file');
    const traces = whole.traces;
    if (!Array.isArray(traces) || traces.length === 0) throw new FormatError('qlog: "traces" must be a list with at least one trace');
    const trace = traces[0] as Json;
    if (!Array.isArray(trace.events)) throw new FormatError('qlog: traces[0].events must be a list');
    return { header: whole, events: trace.events.map((e, i) => eventOf(e, `traces[0].events[${i}]`)) };
  }
  const records = text.includes('\x1e') ? text.split('\x1e') : text.split('\n');
  const parsed = records.map((r, i) => ({ r: r.trim(), where: `record ${i}` })).filter((x) => x.r !== '');
  if (parsed.length === 0) throw new FormatError('qlog: the file holds no records');
  const header = parse(parsed[0].r, `${parsed[0].where} (the header)`);
  if (header.qlog_version === undefined && header.file_schema === undefined)
    throw new FormatError('qlog: the first record must be the header, with "qlog_version" (0.3) or "file_schema" (current drafts)');
  return { header, events: parsed.slice(1).map((x) => eventOf(parse(x.r, x.where), x.where)) };
}

function parse(text: string, where: string): Json {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new FormatError(`qlog ${where}: not JSON (${(e as Error).message})`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new FormatError(`qlog ${where}: must be a JSON object`);
  return v as Json;
}

function eventOf(raw: unknown, where: string): QlogEvent {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new FormatError(`qlog ${where}: an event must be an object with "time", "name" and "data" (qlog draft-01's event_fields lists are not read)`);
  const e = raw as Json;
  const time = Number(e.time);
  if (!Number.isFinite(time)) throw new FormatError(`qlog ${where}: "time" must be a number (got ${JSON.stringify(e.time)})`);
  if (typeof e.name !== 'string') throw new FormatError(`qlog ${where}: "name" must be a string`);
  const data = e.data ?? {};
  if (typeof data !== 'object' || data === null) throw new FormatError(`qlog ${where}: "data" must be an object`);
  const group = e.group_id === undefined ? 0 : Number(e.group_id);
  return { time, name: NAMES[e.name] ?? '', data: data as Json, flow: Number.isInteger(group) && group >= 0 && group < 256 ? group : 0, where };
}

/** One flow's events to log rows, with its window and RTT as metrics_updated last said them. */
class FlowReader {
  private window = Number.NaN;
  private readonly seqOf = new Map<number, number>();
  private readonly sent = new Set<number>();
  /** The row of the ACK or reply whose RTT sample a metrics_updated at its time brings. */
  private pending = -1;

  constructor(
    private readonly log: EventLog,
    private readonly flow: number,
    private readonly unit: number,
    private readonly cumulative: boolean,
  ) {}

  read(e: QlogEvent): void {
    const d = e.data;
    switch (e.name) {
      case 'sent':
        return this.sentPacket(e);
      case 'received':
        return this.receivedPacket(e);
      case 'metrics':
        return this.metrics(e);
      case 'lost': {
        const pn = Number((d.header as Json | undefined)?.packet_number);
        return this.push(e.time, K.loss, this.seqOf.get(pn) ?? pn, 0, Number.NaN);
      }
      case 'timer':
        if (d.event_type === 'expired') this.push(e.time, K.timeout, -1, 0, Number.NaN);
        return;
    }
  }

  private sentPacket(e: QlogEvent): void {
    const pn = Number((e.data.header as Json | undefined)?.packet_number);
    if (!Number.isFinite(pn)) throw new FormatError(`qlog ${e.where}: a sent packet needs header.packet_number`);
    const stream = frames(e).find((f) => f.frame_type === 'stream');
    const seq = stream && Number.isFinite(Number(stream.offset)) ? Number(stream.offset) : pn;
    this.seqOf.set(pn, seq);
    const again = this.sent.has(seq) || String(e.data.trigger ?? '').startsWith('retransmit');
    this.sent.add(seq);
    this.push(e.time, again ? K.retransmit : K.send, seq, Number((e.data.raw as Json | undefined)?.length ?? 0), Number.NaN);
  }

  private receivedPacket(e: QlogEvent): void {
    const bytes = Number((e.data.raw as Json | undefined)?.length ?? 0);
    for (const f of frames(e)) {
      if (f.frame_type === 'ack') {
        const ranges = Array.isArray(f.acked_ranges) ? (f.acked_ranges as unknown[][]) : [];
        const largest = Math.max(-1, ...ranges.map((r) => Number(r[r.length - 1])).filter(Number.isFinite));
        const seq = this.cumulative ? (largest < 0 ? 0 : (this.seqOf.get(largest) ?? largest) + 1) : (this.seqOf.get(largest) ?? largest);
        this.push(e.time, K.ack, seq, bytes, Number.NaN);
      } else if (f.frame_type === 'stream' && Number(f.length) > 0) {
        this.push(e.time, K.reply, Number(f.offset), Number(f.length), Number.NaN);
      }
    }
  }

  private metrics(e: QlogEvent): void {
    const d = e.data;
    if (d.congestion_window !== undefined) this.window = Number(d.congestion_window) / this.unit;
    if (d.bytes_in_flight !== undefined) this.inFlight = Number(d.bytes_in_flight) / this.unit;
    const c = this.log.columns;
    const at = this.pending;
    if (at >= 0 && c.t[at] === e.time) {
      if (d.latest_rtt !== undefined) c.value[at] = Number(d.latest_rtt);
      c.window[at] = this.window;
    }
    if (d.pacing_rate !== undefined) this.push(e.time, K.estimate, ESTIMATE.pacingRate, 0, Number(d.pacing_rate) / 8 / this.unit);
  }

  private inFlight = Number.NaN;

  private push(t: number, kind: number, seq: number, bytes: number, value: number): void {
    const v = kind === K.send || kind === K.retransmit ? this.inFlight : value;
    this.log.push(t, kind, this.flow, seq, bytes, v, this.window);
    // An ACK, a reply or a timeout learns its RTT sample and the window after it from the metrics that follow.
    this.pending = kind === K.ack || kind === K.reply || kind === K.timeout ? this.log.length - 1 : -1;
  }
}

const frames = (e: QlogEvent): Json[] => (Array.isArray(e.data.frames) ? (e.data.frames as Json[]).filter((f) => typeof f === 'object' && f !== null) : []);
