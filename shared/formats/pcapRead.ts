import { EventLog } from '../log/eventLog.ts';
import { K } from '../log/kinds.ts';
import { parseReply, parseRequest } from '../offset/protocol.ts';
import { FormatError } from './errors.ts';
import { IP_HEADER, PROTO_TCP, PROTO_UDP, readTcp, SENDER_PORT_BASE, type TcpRead, UDP_HEADER } from './ipPackets.ts';
import { PCAP_MAGIC_NS, PCAP_MAGIC_US } from './pcap.ts';
import type { Run } from './runFacts.ts';

/** Bytes before the IP header, by link type: raw IP, Ethernet, BSD loopback, Linux cooked capture. */
const LINK_HEADER: Record<number, number> = { 101: 0, 12: 0, 14: 0, 228: 0, 1: 14, 0: 4, 113: 16 };

interface Packet {
  t: number;
  length: number;
  proto: number;
  view: DataView;
  /** The length of the IP header; where the transport header starts and where the captured bytes end. */
  ipHeader: number;
  at: number;
  end: number;
}

/**
 * Reads a libpcap file written by encodePcap (or a capture of the same shape): TCP data segments become
 * sends (a sequence number seen before, retransmissions), ACKs acks with the RTT their timestamps echo;
 * UDP datagrams of the offset protocol requests and replies. The sender is the host that sends the data.
 */
export function decodePcap(bytes: Uint8Array): Run {
  const packets = readRecords(bytes);
  const log = new EventLog(Math.max(16, packets.length));
  if (packets.some((p) => p.proto === PROTO_UDP)) readDatagrams(packets, log);
  else readTcpRun(packets, log);
  return { log, spec: null };
}

function readRecords(bytes: Uint8Array): Packet[] {
  if (bytes.length < 24) throw new FormatError(`not a pcap file: ${bytes.length} bytes, shorter than the 24-byte file header`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magicLe = view.getUint32(0, true);
  const magicBe = view.getUint32(0, false);
  const le = magicLe === PCAP_MAGIC_NS || magicLe === PCAP_MAGIC_US;
  if (!le && magicBe !== PCAP_MAGIC_NS && magicBe !== PCAP_MAGIC_US) {
    const hint = magicBe === 0x0a0d0d0a ? ' (it is pcapng: save it as pcap, e.g. editcap -F pcap)' : '';
    throw new FormatError(`not a pcap file: the magic number is 0x${magicBe.toString(16).padStart(8, '0')}${hint}`);
  }
  const perSecond = (le ? magicLe : magicBe) === PCAP_MAGIC_NS ? 1e9 : 1e6;
  const linkType = view.getUint32(20, le) & 0xffff;
  const skip = LINK_HEADER[linkType];
  if (skip === undefined) throw new FormatError(`pcap link type ${linkType} is not read here (raw IP, Ethernet, loopback and Linux cooked captures are)`);
  const out: Packet[] = [];
  let first = Number.NaN;
  // A capture of the wall clock starts at its first packet; encodePcap's start at the run's zero.
  const WALL_CLOCK_S = 86_400;
  for (let at = 24, n = 1; at < bytes.length; n++) {
    if (at + 16 > bytes.length) throw new FormatError(`record ${n} (byte ${at}): the file ends inside its 16-byte header (was it cut off?)`);
    const seconds = view.getUint32(at, le);
    const fraction = view.getUint32(at + 4, le);
    const captured = view.getUint32(at + 8, le);
    const length = view.getUint32(at + 12, le);
    const start = at + 16;
    if (start + captured > bytes.length) throw new FormatError(`record ${n} (byte ${at}): ${captured} bytes captured, but the file ends ${bytes.length - start} bytes on (was it cut off?)`);
    at = start + captured;
    const ip = start + skip;
    if (captured < skip + IP_HEADER || view.getUint8(ip) >> 4 !== 4) continue;
    if (Number.isNaN(first)) first = seconds > WALL_CLOCK_S ? seconds : 0;
    const ihl = (view.getUint8(ip) & 15) * 4;
    out.push({ t: (seconds - first) * 1000 + (fraction * 1000) / perSecond, length: length - skip, proto: view.getUint8(ip + 9), ipHeader: ihl, view, at: ip + ihl, end: start + captured });
  }
  return out;
}

/** Flow numbers by the sender's port: encodePcap's 40000 + flow, else in the order flows appear. */
function flowNumbers(): (port: number) => number {
  const seen = new Map<number, number>();
  return (port) => {
    if (port >= SENDER_PORT_BASE && port < SENDER_PORT_BASE + 256) return port - SENDER_PORT_BASE;
    if (!seen.has(port)) seen.set(port, seen.size);
    return seen.get(port)!;
  };
}

function readTcpRun(packets: Packet[], log: EventLog): void {
  const segments = packets.flatMap((p) => {
    const tcp = p.proto === PROTO_TCP ? readTcp(p.view, p.at, p.end) : null;
    return tcp ? [{ p, tcp }] : [];
  });
  const payloadOf = (p: Packet, tcp: TcpRead) => p.length - p.ipHeader - tcp.headerLength;
  // The sending side's ports: those of the segments that carry data.
  const unit = new Map<number, number>();
  for (const { p, tcp } of segments) {
    const payload = payloadOf(p, tcp);
    if (payload > 0) unit.set(tcp.srcPort, Math.max(unit.get(tcp.srcPort) ?? 0, payload));
  }
  const flowOf = flowNumbers();
  const sent = new Map<number, Set<number>>();
  for (const { p, tcp } of segments) {
    if (unit.has(tcp.srcPort)) {
      const size = unit.get(tcp.srcPort)!;
      const seq = Math.floor(((tcp.seq - 1) >>> 0) / size);
      const flow = flowOf(tcp.srcPort);
      const seen = sent.get(flow) ?? new Set<number>();
      sent.set(flow, seen);
      log.push(p.t, seen.has(seq) ? K.retransmit : K.send, flow, seq, p.length, Number.NaN, Number.NaN);
      seen.add(seq);
    } else if (unit.has(tcp.dstPort) && tcp.flags & 0x10) {
      const size = unit.get(tcp.dstPort)!;
      const seq = tcp.sack ? Math.floor(((tcp.sack[0] - 1) >>> 0) / size) : Math.floor(((tcp.ack - 1) >>> 0) / size);
      const rtt = tcp.ts ? ((tcp.ts[0] - tcp.ts[1]) >>> 0) / 1000 : Number.NaN;
      log.push(p.t, K.ack, flowOf(tcp.dstPort), seq, p.length, rtt, Number.NaN);
    }
  }
}

/** UDP datagrams of the offset protocol (the client is the side that sends the first data request), or else a sender's datagrams. */
function readDatagrams(packets: Packet[], log: EventLog): void {
  const flowOf = flowNumbers();
  const sent = new Map<number, number>();
  let server = -1;
  for (const p of packets) {
    if (p.proto !== PROTO_UDP || p.end - p.at < UDP_HEADER) continue;
    const sport = p.view.getUint16(p.at);
    const dport = p.view.getUint16(p.at + 2);
    const payloadLength = p.length - p.ipHeader - UDP_HEADER;
    // The body the capture left out is put back as zeros, so the reply parses with its full length.
    const payload = new Uint8Array(Math.max(0, payloadLength));
    payload.set(new Uint8Array(p.view.buffer, p.view.byteOffset + p.at + UDP_HEADER, Math.min(payloadLength, p.end - p.at - UDP_HEADER)));
    const request = sport === server ? null : parseRequest(payload, Number.POSITIVE_INFINITY);
    if (request?.kind === 'data') {
      server = dport;
      log.push(p.t, K.send, flowOf(sport), request.offset, payloadLength, Number.NaN, Number.NaN);
      continue;
    }
    const reply = parseReply(payload);
    if (reply.kind === 'data') log.push(p.t, K.reply, flowOf(dport), reply.offset, reply.numBytes, Number.NaN, Number.NaN);
    else if (server < 0) {
      // Not the offset protocol: a sender's datagrams, numbered in the order sent.
      const flow = flowOf(sport);
      const seq = sent.get(flow) ?? 0;
      sent.set(flow, seq + 1);
      log.push(p.t, K.send, flow, seq, p.length, Number.NaN, Number.NaN);
    }
  }
}
