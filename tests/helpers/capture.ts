import type { Packet, PacketSink } from '../../shared/net/packet.ts';
import { dataPacket } from '../../shared/net/packet.ts';
import type { Ack } from '../../shared/controllers/types.ts';

/** A sink that remembers what reached it and when. */
export class Capture implements PacketSink {
  readonly got: { packet: Packet; t: number }[] = [];
  receive(packet: Packet, now: number): void {
    this.got.push({ packet, t: now });
  }
  get times(): number[] {
    return this.got.map((g) => g.t);
  }
  get seqs(): number[] {
    return this.got.map((g) => g.packet.seq);
  }
}

export const packet = (seq: number, bytes = 1504, flow = 0): Packet => dataPacket(flow, seq, 0, bytes);

/** An ACK as a controller sees it; RTT = now − sentAt. */
export function ack(seq: number, sentAt: number, now: number, extra: Partial<Ack> = {}): Ack {
  return { seq, sentAt, receivedAt: sentAt + (now - sentAt) / 2, now, cumulative: seq + 1, inFlight: 0, ...extra };
}
