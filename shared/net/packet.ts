/** What travels through the simulated network. One shape for data, ACKs, requests and replies. */
export interface Packet {
  flow: number;
  /** Data: sequence number (or file offset). ACK: the sequence number it acknowledges. */
  seq: number;
  /** Size on the wire, in bytes. */
  bytes: number;
  isAck: boolean;
  /** When the sender sent it (echoed back in its ACK). */
  sentAt: number;
  /** ACK only: when the receiver got the data packet it acknowledges. */
  receivedAt: number;
  /** Reliable transfer: cumulative ACK (next byte expected); data: payload offset. */
  ack: number;
  /** Application bytes (offset-server datagrams, reliable-transfer payload); absent in the contest. */
  payload?: Uint8Array;
  /** Whether the sender had sent this sequence number before. */
  retransmit: boolean;
  /**
   * Data: the ECN codepoint in its IP header (ECN.*). ACK: the codepoint its data packet arrived with,
   * so a CE here is the receiver's echo (ECE).
   */
  ecn: number;
}

/** The IP header's two ECN bits, valued as Linux's INET_ECN_* (RFC 3168, RFC 9331 for ECT(1) as L4S). */
export const ECN = { notEct: 0, ect1: 1, ect0: 2, ce: 3 } as const;

/** What an AQM with ECN does where it would drop: marks an ECN-capable packet CE and says so; Not-ECT stays as it was. */
export function markCe(packet: Packet): boolean {
  if (packet.ecn === ECN.notEct) return false;
  packet.ecn = ECN.ce;
  return true;
}

export const DATA_BYTES = 1500;
export const ACK_BYTES = 80;

export interface PacketSink {
  receive(packet: Packet, now: number): void;
}

export function dataPacket(flow: number, seq: number, sentAt: number, bytes = DATA_BYTES, ecn: number = ECN.notEct): Packet {
  return { flow, seq, bytes, isAck: false, sentAt, receivedAt: 0, ack: 0, retransmit: false, ecn };
}

export function ackFor(data: Packet, now: number, ack = data.seq): Packet {
  return { flow: data.flow, seq: data.seq, bytes: ACK_BYTES, isAck: true, sentAt: data.sentAt, receivedAt: now, ack, retransmit: false, ecn: data.ecn };
}

/**
 * Data packets for a sender whose every ACK comes back to it: an ACK the sender has read becomes one of
 * its next data packets, so a long run allocates no object per send. Only for ACKs nothing else holds on to.
 */
export class PacketRecycler {
  // A stack by index rather than push and pop: 3% fewer instructions a contest run (a slot above the
  // top may still name a packet in use; it is written over before it is read).
  private readonly spare: Packet[] = [];
  private count = 0;

  data(flow: number, seq: number, sentAt: number, bytes: number, ecn: number = ECN.notEct): Packet {
    if (this.count === 0) return dataPacket(flow, seq, sentAt, bytes, ecn);
    const p = this.spare[--this.count];
    p.flow = flow;
    p.seq = seq;
    p.bytes = bytes;
    p.isAck = false;
    p.sentAt = sentAt;
    p.receivedAt = 0;
    p.ack = 0;
    p.retransmit = false;
    p.ecn = ecn;
    return p;
  }

  release(ack: Packet): void {
    this.spare[this.count++] = ack;
  }
}

/**
 * Turns a delivered data packet into its ACK in place, as the contest skeleton's receiver does with its
 * datagram: no second object per packet. Only for packets nothing else holds on to.
 */
export function intoAck(data: Packet, now: number): Packet {
  data.isAck = true;
  data.bytes = ACK_BYTES;
  data.receivedAt = now;
  data.ack = data.seq;
  data.retransmit = false;
  return data;
}
