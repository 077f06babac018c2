/**
 * IPv4, TCP and UDP headers as a capture on the sender's host shows them. Only the fields a reader needs
 * are set: the IP header's checksum is right, the TCP and UDP checksums are zero (as a capture of a host
 * that offloads them shows).
 */
export const IP_HEADER = 20;
export const UDP_HEADER = 8;
export const TCP_BASE = 20;
export const PROTO_TCP = 6;
export const PROTO_UDP = 17;

/** The sender's and the receiver's addresses: a private network of two hosts. */
export const SENDER_IP = [10, 0, 0, 1] as const;
export const RECEIVER_IP = [10, 0, 0, 2] as const;
/** Flow f's sender port; the receiver's for a window-controlled run (the offset servers keep their own). */
export const SENDER_PORT_BASE = 40_000;
export const RECEIVER_PORT = 5001;

export interface IpFields {
  src: readonly number[];
  dst: readonly number[];
  proto: number;
  /** The IP packet's total length, as the model counts it. */
  length: number;
  id: number;
}

export function writeIp(view: DataView, at: number, f: IpFields): void {
  view.setUint8(at, 0x45);
  view.setUint8(at + 1, 0);
  view.setUint16(at + 2, f.length);
  view.setUint16(at + 4, f.id & 0xffff);
  view.setUint16(at + 6, 0x4000); // don't fragment
  view.setUint8(at + 8, 64);
  view.setUint8(at + 9, f.proto);
  view.setUint16(at + 10, 0);
  for (let i = 0; i < 4; i++) {
    view.setUint8(at + 12 + i, f.src[i]);
    view.setUint8(at + 16 + i, f.dst[i]);
  }
  let sum = 0;
  for (let i = 0; i < IP_HEADER; i += 2) sum += view.getUint16(at + i);
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  view.setUint16(at + 10, ~sum & 0xffff);
}

export interface TcpFields {
  srcPort: number;
  dstPort: number;
  seq: number;
  ack: number;
  /** TCP flags byte: 0x10 ACK, 0x18 PSH+ACK. */
  flags: number;
  /** Timestamps option (RFC 7323): the sender's clock, here in microseconds, and the echoed one. */
  tsVal: number;
  tsEcr: number;
  /** A selective-ACK block [left, right), for a receiver that acknowledges each packet on its own. */
  sack: [number, number] | null;
  /** Options padded with no-ops up to this many bytes (at most 40): an ACK's size as the model counts it. */
  optionBytes: number;
}

/** The TCP header's length for these options: timestamps, an optional SACK block, the padding asked for. */
export const tcpHeaderLength = (sack: boolean, optionBytes: number) => TCP_BASE + Math.max(sack ? 24 : 12, optionBytes);

export function writeTcp(view: DataView, at: number, f: TcpFields): number {
  const length = tcpHeaderLength(f.sack !== null, f.optionBytes);
  view.setUint16(at, f.srcPort);
  view.setUint16(at + 2, f.dstPort);
  view.setUint32(at + 4, f.seq >>> 0);
  view.setUint32(at + 8, f.ack >>> 0);
  view.setUint8(at + 12, (length / 4) << 4);
  view.setUint8(at + 13, f.flags);
  view.setUint16(at + 14, 65_535);
  view.setUint32(at + 16, 0); // checksum, urgent pointer
  let o = at + TCP_BASE;
  const put = (...bytes: number[]) => {
    for (const b of bytes) view.setUint8(o++, b);
  };
  put(1, 1, 8, 10);
  view.setUint32(o, f.tsVal >>> 0);
  view.setUint32(o + 4, f.tsEcr >>> 0);
  o += 8;
  if (f.sack) {
    put(1, 1, 5, 10);
    view.setUint32(o, f.sack[0] >>> 0);
    view.setUint32(o + 4, f.sack[1] >>> 0);
    o += 8;
  }
  while (o < at + length) put(1);
  return length;
}

export function writeUdp(view: DataView, at: number, srcPort: number, dstPort: number, length: number): void {
  view.setUint16(at, srcPort);
  view.setUint16(at + 2, dstPort);
  view.setUint16(at + 4, length);
  view.setUint16(at + 6, 0);
}

/** What a reader takes from a TCP header: ports, numbers, flags, the timestamps and the first SACK block. */
export interface TcpRead {
  srcPort: number;
  dstPort: number;
  seq: number;
  ack: number;
  flags: number;
  headerLength: number;
  ts: [number, number] | null;
  sack: [number, number] | null;
}

export function readTcp(view: DataView, at: number, end: number): TcpRead | null {
  if (end - at < TCP_BASE) return null;
  const headerLength = (view.getUint8(at + 12) >> 4) * 4;
  const r: TcpRead = {
    srcPort: view.getUint16(at),
    dstPort: view.getUint16(at + 2),
    seq: view.getUint32(at + 4),
    ack: view.getUint32(at + 8),
    flags: view.getUint8(at + 13),
    headerLength,
    ts: null,
    sack: null,
  };
  const stop = Math.min(end, at + headerLength);
  for (let o = at + TCP_BASE; o < stop; ) {
    const kind = view.getUint8(o);
    if (kind === 0) break;
    if (kind === 1) {
      o++;
      continue;
    }
    const len = o + 1 < stop ? view.getUint8(o + 1) : 0;
    if (len < 2 || o + len > stop) break;
    if (kind === 8 && len === 10) r.ts = [view.getUint32(o + 2), view.getUint32(o + 6)];
    if (kind === 5 && len >= 10) r.sack = [view.getUint32(o + 2), view.getUint32(o + 6)];
    o += len;
  }
  return r;
}
