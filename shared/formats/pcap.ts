import { K } from '../log/kinds.ts';
import { FormatError } from './errors.ts';
import { IP_HEADER, type IpFields, PROTO_TCP, PROTO_UDP, RECEIVER_IP, RECEIVER_PORT, SENDER_IP, SENDER_PORT_BASE, tcpHeaderLength, UDP_HEADER, writeIp, writeTcp, writeUdp } from './ipPackets.ts';
import { offsetServerPort, replyBytes, requestBytes } from './offsetText.ts';
import { cumulativeAcks, dataPacketBytes, isExternalRun, isOffsetRun, type Run, scenarioOf } from './runFacts.ts';

/**
 * The run as libpcap's file format (nanosecond timestamps, raw IPv4 link type), as tcpdump on the sender's
 * host would capture it: data out and ACKs in as TCP, or an offset-server session's requests and replies as
 * UDP carrying the course protocol's text headers, or an emulated link's datagrams (the sender's, as it
 * sent them; the link logs no replies). Each IP packet has the length the model counts; what
 * the model does not carry (payload bytes) is left out of the capture, as a short snap length does.
 *
 * TCP: data packet `seq` starts at sequence number 1 + seq × P, P being the flow's largest payload; an ACK
 * of a cumulative receiver acknowledges n × P + 1. A receiver that acknowledges each packet (the contest's,
 * whose sender never retransmits) carries its packet as a SACK block, and as the ACK number the end of the
 * highest packet acknowledged yet, so that Wireshark's RTT and throughput statistics follow it. The timestamps option holds the
 * time in microseconds, and an ACK echoes its packet's, so the RTT the model measured is in the capture.
 */
export const PCAP_MAGIC_NS = 0xa1b23c4d;
export const PCAP_MAGIC_US = 0xa1b2c3d4;
export const LINKTYPE_RAW = 101;
const RECORD_HEADER = 16;
const FILE_HEADER = 24;
const DATA_TCP_HEADER = tcpHeaderLength(false, 0);

/** The libpcap file of a run's packets at the sender. */
export function encodePcap(run: Run): Uint8Array {
  const w = new PcapWriter(run.log.count(K.send) + run.log.count(K.retransmit) + run.log.count(K.ack) + run.log.count(K.reply));
  if (isOffsetRun(run)) writeOffsetSession(run, w);
  else if (isExternalRun(run)) writeDatagrams(run, w);
  else writeTcpRun(run, w);
  return w.bytes();
}

class PcapWriter {
  private buf: Uint8Array;
  private view: DataView;
  private at = FILE_HEADER;
  private id = 0;

  constructor(records: number) {
    this.buf = new Uint8Array(FILE_HEADER + records * (RECORD_HEADER + 160));
    this.view = new DataView(this.buf.buffer);
    const v = this.view;
    v.setUint32(0, PCAP_MAGIC_NS, true);
    v.setUint16(4, 2, true);
    v.setUint16(6, 4, true);
    v.setUint32(16, 65_535, true);
    v.setUint32(20, LINKTYPE_RAW, true);
  }

  /** One record: its time (ms from the run's start), the packet's full length, and how much of it is captured; `fill` writes those bytes. */
  packet(tMs: number, length: number, captured: number, ip: Omit<IpFields, 'id' | 'length'>, fill: (view: DataView, at: number) => void): void {
    if (!(tMs >= 0) || !Number.isFinite(tMs)) throw new FormatError(`a packet at ${tMs} ms cannot be captured: times must be finite and not negative`);
    if (this.at + RECORD_HEADER + captured > this.buf.length) this.grow(RECORD_HEADER + captured);
    const v = this.view;
    const ns = Math.round(tMs * 1e6);
    v.setUint32(this.at, Math.floor(ns / 1e9), true);
    v.setUint32(this.at + 4, ns % 1e9, true);
    v.setUint32(this.at + 8, captured, true);
    v.setUint32(this.at + 12, length, true);
    const start = this.at + RECORD_HEADER;
    writeIp(v, start, { ...ip, length, id: this.id++ });
    fill(v, start + IP_HEADER);
    this.at = start + captured;
  }

  bytes(): Uint8Array {
    return this.buf.slice(0, this.at);
  }

  private grow(need: number): void {
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.at + need));
    next.set(this.buf.subarray(0, this.at));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
}

const micros = (tMs: number) => Math.round(tMs * 1000);

function writeTcpRun(run: Run, w: PcapWriter): void {
  const c = run.log.columns;
  const sizes = dataPacketBytes(run.log);
  const cumulative = cumulativeAcks(run);
  const highest = new Map<number, number>();
  for (let i = 0; i < run.log.length; i++) {
    const kind = c.kind[i];
    if (kind !== K.send && kind !== K.retransmit && kind !== K.ack) continue;
    const flow = c.flow[i];
    const payloadUnit = Math.max(1, (sizes.get(flow) ?? 0) - IP_HEADER - DATA_TCP_HEADER);
    const ports = { sender: SENDER_PORT_BASE + flow, receiver: RECEIVER_PORT };
    const t = c.t[i];
    const bytes = c.bytes[i];
    if (kind === K.ack) {
      const a = ackNumbers(c.seq[i], cumulative, highest, flow, payloadUnit);
      const optionBytes = Math.min(40, Math.max(0, bytes - IP_HEADER - 20) & ~3);
      const header = tcpHeaderLength(a.sack !== null, optionBytes);
      if (bytes < IP_HEADER + header) throw new FormatError(`an ACK of ${bytes} bytes at ${t} ms is smaller than its IP and TCP headers (${IP_HEADER + header} bytes)`);
      w.packet(t, bytes, IP_HEADER + header, { src: RECEIVER_IP, dst: SENDER_IP, proto: PROTO_TCP }, (v, at) =>
        writeTcp(v, at, { srcPort: ports.receiver, dstPort: ports.sender, seq: 1, ack: a.ack, flags: 0x10, tsVal: micros(t), tsEcr: micros(t - c.value[i]), sack: a.sack, optionBytes }),
      );
    } else {
      if (bytes < IP_HEADER + DATA_TCP_HEADER) throw new FormatError(`a data packet of ${bytes} bytes at ${t} ms is smaller than its IP and TCP headers (${IP_HEADER + DATA_TCP_HEADER} bytes)`);
      w.packet(t, bytes, IP_HEADER + DATA_TCP_HEADER, { src: SENDER_IP, dst: RECEIVER_IP, proto: PROTO_TCP }, (v, at) =>
        writeTcp(v, at, { srcPort: ports.sender, dstPort: ports.receiver, seq: 1 + c.seq[i] * payloadUnit, ack: 1, flags: 0x18, tsVal: micros(t), tsEcr: 0, sack: null, optionBytes: 0 }),
      );
    }
  }
}

/** An ACK's number and SACK block: cumulative receivers say the next packet; others the packet, as a SACK block. */
function ackNumbers(seq: number, cumulative: boolean, highest: Map<number, number>, flow: number, unit: number): { ack: number; sack: [number, number] | null } {
  if (cumulative) return { ack: 1 + seq * unit, sack: null };
  const top = Math.max(highest.get(flow) ?? 0, seq + 1);
  highest.set(flow, top);
  return { ack: 1 + top * unit, sack: [1 + seq * unit, 1 + (seq + 1) * unit] };
}

/** An emulated link's capture: each datagram the sender sent, by size; what it carried was not logged. */
function writeDatagrams(run: Run, w: PcapWriter): void {
  const c = run.log.columns;
  for (let i = 0; i < run.log.length; i++) {
    if (c.kind[i] !== K.send && c.kind[i] !== K.retransmit) continue;
    const length = c.bytes[i];
    if (length < IP_HEADER + UDP_HEADER) throw new FormatError(`a datagram of ${length} bytes at ${c.t[i]} ms is smaller than its IP and UDP headers`);
    w.packet(c.t[i], length, IP_HEADER + UDP_HEADER, { src: SENDER_IP, dst: RECEIVER_IP, proto: PROTO_UDP }, (v, at) =>
      writeUdp(v, at, SENDER_PORT_BASE + c.flow[i], RECEIVER_PORT, length - IP_HEADER),
    );
  }
}

function writeOffsetSession(run: Run, w: PcapWriter): void {
  const c = run.log.columns;
  const server = offsetServerPort(run.spec);
  const fileBytes = scenarioOf(run)?.flows[0]?.bytes ?? null;
  const squished = new Set<number>();
  for (let i = 0; i < run.log.length; i++) {
    const kind = c.kind[i];
    const flow = c.flow[i];
    const t = c.t[i];
    if (kind === K.squish) {
      if (c.value[i]) squished.add(flow);
      else squished.delete(flow);
      continue;
    }
    if (kind !== K.send && kind !== K.reply) continue;
    const client = SENDER_PORT_BASE + flow;
    const datagram = kind === K.send ? requestBytes(c.seq[i], c.bytes[i], fileBytes) : replyBytes(c.seq[i], c.bytes[i], squished.has(flow));
    // A request is all text; of a reply the capture keeps the header, as a short snap length would.
    const payload = kind === K.send ? c.bytes[i] : datagram.length;
    const kept = kind === K.send ? Math.min(payload, datagram.length) : datagram.length - c.bytes[i];
    const [src, dst, sport, dport] = kind === K.send ? [SENDER_IP, RECEIVER_IP, client, server] : [RECEIVER_IP, SENDER_IP, server, client];
    w.packet(t, IP_HEADER + UDP_HEADER + payload, IP_HEADER + UDP_HEADER + kept, { src, dst, proto: PROTO_UDP }, (v, at) => {
      writeUdp(v, at, sport, dport, UDP_HEADER + payload);
      new Uint8Array(v.buffer, v.byteOffset + at + UDP_HEADER, kept).set(datagram.subarray(0, kept));
    });
  }
}
