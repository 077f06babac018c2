import { ESTIMATE, K } from '../log/kinds.ts';
import { cumulativeAcks, type Run, windowUnits } from './runFacts.ts';

/**
 * The run as a qlog file of QUIC events, JSON text sequences (RFC 7464, `.sqlog`), from the sender's side.
 *
 * Version: qlog 0.3 (draft-ietf-quic-qlog-main-schema-02 with draft-ietf-quic-qlog-quic-events-01), the last
 * version qvis reads: its congestion view loads `transport:packet_sent`/`packet_received` and
 * `recovery:metrics_updated`/`packet_lost`. The drafts since renamed these `quic:…` and moved the header to
 * `file_schema`; decodeQlog reads both.
 *
 * Each data packet is a 1-RTT packet numbered in order of sending, carrying a stream frame whose offset is
 * the model's sequence number (an offset-server request's: the file offset). An ACK is a received packet
 * with an ack frame for the packet numbers it acknowledges; an offset reply a received stream frame.
 * `recovery:metrics_updated` follows every change of the window or the flight (in bytes, the flow's data
 * packet size a packet), and every RTT sample (latest, RFC 9002's smoothed and min), and a pacing estimate
 * (bits per second). A loss the sender inferred is `recovery:packet_lost`; its timer firing is
 * `recovery:loss_timer_updated` (pto, expired). The header's `x_pipefill` keeps the experiment.
 */
export const QLOG_VERSION = '0.3';
const RS = '\x1e';

interface FlowState {
  pn: number;
  received: number;
  /** Packet numbers of each sequence number's latest sending. */
  sentAs: Map<number, number>;
  lowestUnacked: number;
  cwnd: number;
  inFlight: number;
  srtt: number;
  minRtt: number;
}

const newFlow = (): FlowState => ({ pn: 0, received: 0, sentAs: new Map(), lowestUnacked: 0, cwnd: Number.NaN, inFlight: Number.NaN, srtt: Number.NaN, minRtt: Number.POSITIVE_INFINITY });

export function encodeQlog(run: Run): string {
  const units = windowUnits(run);
  const cumulative = cumulativeAcks(run);
  const out: string[] = [RS + JSON.stringify(qlogHeader(run, units, cumulative))];
  const flows = new Map<number, FlowState>();
  const c = run.log.columns;
  const emit = (t: number, flow: number, name: string, data: object) => out.push(`${RS}{"time":${t},"name":"${name}","data":${JSON.stringify(data)},"group_id":"${flow}"}`);
  for (let i = 0; i < run.log.length; i++) {
    const flow = c.flow[i];
    let f = flows.get(flow);
    if (!f) flows.set(flow, (f = newFlow()));
    const unit = units.get(flow) ?? 1;
    const t = c.t[i];
    const seq = c.seq[i];
    const metrics = (more: Record<string, number>) => {
      const m: Record<string, number> = { ...more };
      const cwnd = c.window[i] * unit;
      if (Number.isFinite(cwnd) && cwnd !== f.cwnd) m.congestion_window = f.cwnd = cwnd;
      if (Object.keys(m).length > 0) emit(t, flow, 'recovery:metrics_updated', m);
    };
    switch (c.kind[i]) {
      case K.send:
      case K.retransmit: {
        const flight = c.value[i] * unit;
        metrics(Number.isFinite(flight) && flight !== f.inFlight ? { bytes_in_flight: (f.inFlight = flight) } : {});
        f.sentAs.set(seq, f.pn);
        const frame = { frame_type: 'stream', stream_id: 0, offset: seq, length: c.bytes[i] };
        emit(t, flow, 'transport:packet_sent', {
          header: { packet_type: '1RTT', packet_number: f.pn++ },
          raw: { length: c.bytes[i] },
          frames: [frame],
          ...(c.kind[i] === K.retransmit ? { trigger: 'retransmit_timeout' } : {}),
        });
        break;
      }
      case K.ack:
      case K.reply: {
        const frames = c.kind[i] === K.reply ? [{ frame_type: 'stream', stream_id: 0, offset: seq, length: c.bytes[i] }] : [{ frame_type: 'ack', acked_ranges: ackedRanges(f, seq, cumulative) }];
        emit(t, flow, 'transport:packet_received', { header: { packet_type: '1RTT', packet_number: f.received++ }, raw: { length: c.bytes[i] }, frames });
        const rtt = c.value[i];
        if (!Number.isFinite(rtt)) {
          metrics({});
          break;
        }
        f.srtt = Number.isNaN(f.srtt) ? rtt : (7 * f.srtt + rtt) / 8;
        f.minRtt = Math.min(f.minRtt, rtt);
        metrics({ latest_rtt: rtt, smoothed_rtt: f.srtt, min_rtt: f.minRtt });
        break;
      }
      case K.loss:
        emit(t, flow, 'recovery:packet_lost', { header: { packet_type: '1RTT', packet_number: f.sentAs.get(seq) ?? -1 }, trigger: 'reordering_threshold' });
        break;
      case K.timeout:
        emit(t, flow, 'recovery:loss_timer_updated', { timer_type: 'pto', event_type: 'expired' });
        metrics({});
        break;
      case K.estimate:
        if (seq === ESTIMATE.pacingRate && Number.isFinite(c.value[i])) emit(t, flow, 'recovery:metrics_updated', { pacing_rate: c.value[i] * unit * 8 });
        break;
    }
  }
  return `${out.join('\n')}\n`;
}

/** The file's header: the version qvis knows, one trace from the sender's side, and the experiment. */
function qlogHeader(run: Run, units: Map<number, number>, cumulative: boolean) {
  return {
    qlog_version: QLOG_VERSION,
    qlog_format: 'JSON-SEQ',
    title: 'Pipefill run',
    description: 'congestion control of a Pipefill run, from the sender',
    trace: { vantage_point: { name: 'pipefill sender', type: 'client' }, common_fields: { time_format: 'relative', reference_time: 0, protocol_type: ['QUIC'] } },
    x_pipefill: { spec: run.spec, cumulative_acks: cumulative, packet_bytes: Object.fromEntries(units) },
  };
}

/** The packet numbers an ACK covers: the packet it answers, or for a cumulative one every packet below the next expected. */
function ackedRanges(f: FlowState, seq: number, cumulative: boolean): [number, number][] {
  if (!cumulative) {
    const pn = f.sentAs.get(seq) ?? -1;
    return [[pn, pn]];
  }
  const top = f.sentAs.get(seq - 1);
  if (top === undefined) return [];
  const range: [number, number] = [Math.min(f.lowestUnacked, top), top];
  f.lowestUnacked = Math.max(f.lowestUnacked, top + 1);
  return [range];
}
