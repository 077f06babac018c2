import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { iperf3IntervalCsv, iperf3Run, parseIperf3 } from '../../../shared/formats/iperf3.ts';
import { encodeMahimahiLog, opportunitiesOver } from '../../../shared/formats/mahimahiLog.ts';
import { encodePcap } from '../../../shared/formats/pcap.ts';
import { encodeQlog } from '../../../shared/formats/qlog.ts';
import { decodeQlog } from '../../../shared/formats/qlogRead.ts';
import { EventLog } from '../../../shared/log/eventLog.ts';
import { DROP, ESTIMATE, K, KINDS } from '../../../shared/log/kinds.ts';
import { ROOT } from '../../helpers/cli.ts';

describe('pcap, byte by byte', () => {
  // One 1052-byte data packet at 1.5 ms and its ACK (80 bytes) at 21.5 ms, 20 ms later.
  const log = new EventLog();
  log.push(1.5, K.send, 0, 0, 1052, 1, 2);
  log.push(21.5, K.ack, 0, 0, 80, 20, 3);
  const bytes = encodePcap({ log, spec: null });
  const v = new DataView(bytes.buffer);

  it('has the nanosecond libpcap header and raw IPv4 records of the model’s sizes', () => {
    expect(bytes.length).toBe(24 + 16 + 52 + 16 + 80);
    expect(v.getUint32(0, true)).toBe(0xa1b23c4d);
    expect([v.getUint16(4, true), v.getUint16(6, true), v.getUint32(20, true)]).toEqual([2, 4, 101]);
    // data: 0 s + 1,500,000 ns, 52 bytes kept of 1052
    expect([v.getUint32(24, true), v.getUint32(28, true), v.getUint32(32, true), v.getUint32(36, true)]).toEqual([0, 1_500_000, 52, 1052]);
    expect([v.getUint8(40), v.getUint16(42), v.getUint8(49)]).toEqual([0x45, 1052, 6]);
    // 10.0.0.1:40000 → 10.0.0.2:5001, sequence number 1, PSH+ACK, timestamps 1500 µs
    expect([v.getUint32(52), v.getUint32(56), v.getUint16(60), v.getUint16(62), v.getUint32(64), v.getUint8(73)]).toEqual([0x0a000001, 0x0a000002, 40_000, 5001, 1, 0x18]);
    expect(v.getUint32(84)).toBe(1500);
  });

  it('gives the IP header a checksum that sums to 0xffff', () => {
    let sum = 0;
    for (let i = 0; i < 20; i += 2) sum += v.getUint16(40 + i);
    while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
    expect(sum).toBe(0xffff);
  });

  it('writes the ACK as the receiver’s, acknowledging packet 0 whole (1 + 1000) with its SACK block and the echoed time', () => {
    const at = 24 + 16 + 52;
    expect([v.getUint32(at + 4, true), v.getUint32(at + 8, true), v.getUint32(at + 12, true)]).toEqual([21_500_000, 80, 80]);
    const tcp = at + 16 + 20;
    expect([v.getUint16(tcp), v.getUint16(tcp + 2), v.getUint32(tcp + 8), v.getUint8(tcp + 12) >> 4, v.getUint8(tcp + 13)]).toEqual([5001, 40_000, 1001, 15, 0x10]);
    // NOP NOP TS(21500, 1500) NOP NOP SACK [1, 1001)
    expect([v.getUint8(tcp + 22), v.getUint32(tcp + 24), v.getUint32(tcp + 28), v.getUint8(tcp + 34), v.getUint32(tcp + 36), v.getUint32(tcp + 40)]).toEqual([8, 21_500, 1500, 5, 1, 1001]);
  });
});

describe('qlog, line by line', () => {
  it('writes the 0.3 JSON-SEQ header, then metrics before a send and after an ACK, in bytes', () => {
    const log = new EventLog();
    log.push(0, K.send, 0, 0, 1500, 1, 2);
    log.push(40, K.ack, 0, 0, 80, 40, 3);
    log.push(40, K.estimate, 0, ESTIMATE.pacingRate, 0, 100, 3);
    log.push(50, K.ack, 0, 1, 80, 20, 3);
    const records = encodeQlog({ log, spec: null }).split('\n').filter(Boolean);
    expect(records.every((r) => r.startsWith('\x1e'))).toBe(true);
    const [header, ...events] = records.map((r) => JSON.parse(r.slice(1)));
    expect(header).toMatchObject({ qlog_version: '0.3', qlog_format: 'JSON-SEQ', trace: { common_fields: { time_format: 'relative', reference_time: 0 } } });
    expect(events.map((e) => [e.time, e.name])).toEqual([
      [0, 'recovery:metrics_updated'],
      [0, 'transport:packet_sent'],
      [40, 'transport:packet_received'],
      [40, 'recovery:metrics_updated'],
      [40, 'recovery:metrics_updated'],
      [50, 'transport:packet_received'],
      [50, 'recovery:metrics_updated'],
    ]);
    expect(events[0].data).toEqual({ congestion_window: 3000, bytes_in_flight: 1500 });
    expect(events[1].data).toEqual({ header: { packet_type: '1RTT', packet_number: 0 }, raw: { length: 1500 }, frames: [{ frame_type: 'stream', stream_id: 0, offset: 0, length: 1500 }] });
    expect(events[2].data.frames).toEqual([{ frame_type: 'ack', acked_ranges: [[0, 0]] }]);
    expect(events[3].data).toEqual({ latest_rtt: 40, smoothed_rtt: 40, min_rtt: 40, congestion_window: 4500 });
    expect(events[4].data).toEqual({ pacing_rate: 100 * 1500 * 8 });
    // RFC 9002: smoothed = 7/8 · 40 + 1/8 · 20 = 37.5; the window did not change, so it is not said again
    expect(events[6].data).toEqual({ latest_rtt: 20, smoothed_rtt: 37.5, min_rtt: 20 });
  });
});

describe('a qlog another tool wrote', () => {
  it('reads the current drafts’ names (quic:…, file_schema): sends, ACKs with the RTT, the window in packets of the largest sent', () => {
    const records = [
      { file_schema: 'urn:ietf:params:qlog:file:sequential', serialization_format: 'application/qlog+json-seq', trace: { vantage_point: { type: 'client' } } },
      { time: 1, name: 'quic:recovery_metrics_updated', data: { congestion_window: 12_000, bytes_in_flight: 0 } },
      { time: 1, name: 'quic:packet_sent', data: { header: { packet_type: '1RTT', packet_number: 7 }, raw: { length: 1200 } } },
      { time: 2, name: 'quic:packet_sent', data: { header: { packet_type: '1RTT', packet_number: 8 }, raw: { length: 1200 } } },
      { time: 31, name: 'quic:packet_received', data: { header: { packet_type: '1RTT', packet_number: 3 }, raw: { length: 40 }, frames: [{ frame_type: 'ack', acked_ranges: [[7, 8]] }] } },
      { time: 31, name: 'quic:recovery_metrics_updated', data: { latest_rtt: 29.5, congestion_window: 14_400 } },
      { time: 40, name: 'quic:packet_lost', data: { header: { packet_number: 8 } } },
    ];
    const { log, spec } = decodeQlog(records.map((r) => `\x1e${JSON.stringify(r)}\n`).join(''));
    expect(spec).toBeNull();
    const c = log.columns;
    // packet numbers are the sequence without stream frames; an ACK names its largest; windows in 1200-byte packets
    expect([...Array(log.length).keys()].map((i) => [c.t[i], KINDS[c.kind[i]], c.seq[i], c.bytes[i], c.value[i], c.window[i]])).toEqual([
      [1, 'send', 7, 1200, 0, 10],
      [2, 'send', 8, 1200, 0, 10],
      [31, 'ack', 8, 40, 29.5, 12],
      [40, 'loss', 8, 0, Number.NaN, 12],
    ]);
  });
});

describe('Mahimahi link log, line by line', () => {
  it('writes opportunities, then departures, then arrivals within a millisecond, and a refused packet as arrival and drop', () => {
    const log = new EventLog();
    log.push(0, K.enqueue, 0, 0, 1504, 1, 0);
    log.push(1, K.enqueue, 0, 1, 1504, 1, 0);
    log.push(1, K.depart, 0, 0, 1504, 1, 0);
    log.push(1, K.drop, 0, 2, 1504, DROP.queue, 0);
    const text = encodeMahimahiLog({ log, spec: null }, opportunitiesOver([1, 2], 3, false));
    // opportunities at 1 and 2 ms, repeating every 2 ms: 1, 2, 3
    expect(text.split('\n').slice(4)).toEqual(['# base timestamp: 0', '0 + 1504', '1 # 1504', '1 - 1504 1', '1 + 1504', '1 + 1504', '1 d 1 1504', '2 # 1504', '3 # 1504', '']);
  });

  it('repeats a trace with its period, or plays it once', () => {
    expect(opportunitiesOver([1, 1, 3], 7, false)).toEqual([1, 1, 3, 4, 4, 6, 7, 7]);
    expect(opportunitiesOver([1, 1, 3], 7, true)).toEqual([1, 1, 3]);
  });
});

const IPERF = (streams: object[][], extra = {}) =>
  JSON.stringify({ start: { test_start: { protocol: 'TCP' } }, intervals: streams.map((s) => ({ streams: s })), end: { sender_tcp_congestion: 'cubic' }, ...extra });
const interval = (start: number, end: number, bytes: number, cwnd: number, rtt: number, retransmits = 0) => ({
  start,
  end,
  seconds: end - start,
  bytes,
  bits_per_second: (bytes * 8) / (end - start),
  retransmits,
  snd_cwnd: cwnd,
  rtt,
  pmtu: 1500,
  sender: true,
});

describe('iperf3 -J', () => {
  const test = parseIperf3(IPERF([[interval(0, 1, 1_250_000, 14_480, 20_000)], [interval(1, 2, 2_500_000, 28_960, 30_000, 2)]]));

  it('reads the kernel’s window in bytes, its RTT in µs, and the MSS from the path MTU', () => {
    expect(test.mss).toBe(1448);
    expect(test.scheme).toBe('cubic');
    expect(test.intervals[1]).toEqual({ flow: 0, startMs: 1000, endMs: 2000, bytes: 2_500_000, bitsPerSecond: 20_000_000, retransmits: 2, cwndBytes: 28_960, rttMs: 30 });
  });

  it('reads a real file of this machine’s kernel (loopback: a 65,535-byte path MTU)', () => {
    const real = parseIperf3(readFileSync(join(ROOT, 'tests/fixtures/iperf3-loopback.json'), 'utf8'));
    expect([real.intervals.length, real.mss, real.scheme]).toEqual([30, 65_483, 'bbr']);
    expect(real.intervals[5]).toMatchObject({ startMs: expect.closeTo(500.082, 9), endMs: expect.closeTo(600.079, 9), bytes: 131_072, cwndBytes: 1_178_694, rttMs: 0.034, retransmits: 0 });
  });

  it('converts to the per-interval summary CSV with the window in packets and in bytes', () => {
    expect(iperf3IntervalCsv(test)).toBe(
      '# pipefill-trace v1 intervals 1000 ms (iperf3, cubic, 1448-byte packets)\n' +
        't_ms,flow,throughput_mbps,queue_delay_ms,rtt_ms,window,drops,timeouts,window_bytes,retransmits\n' +
        '0,0,10,,20,10,,,14480,0\n' +
        '1000,0,20,,30,20,,,28960,2\n',
    );
  });

  it('draws as a run: bytes spread over 10 ms slices, an ACK with the RTT and window at each interval’s end, a loss per retransmission', () => {
    const { log } = iperf3Run(test);
    const c = log.columns;
    let bytes = 0;
    for (let i = 0; i < log.length; i++) if (c.kind[i] === K.depart && c.t[i] <= 1000) bytes += c.bytes[i];
    expect(bytes).toBe(1_250_000);
    expect(log.count(K.depart)).toBe(200);
    const acks = [...Array(log.length).keys()].filter((i) => c.kind[i] === K.ack).map((i) => [c.t[i], c.value[i], c.window[i]]);
    expect(acks).toEqual([
      [1000, 20, 10],
      [2000, 30, 20],
    ]);
    expect(log.count(K.loss)).toBe(2);
    // queueing delay: RTT less the least RTT seen (20 ms)
    expect(c.value[[...Array(log.length).keys()].find((i) => c.kind[i] === K.depart && c.t[i] > 1000)!]).toBe(10);
  });
});
