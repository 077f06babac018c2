import type { EventLog } from '../log/eventLog.ts';
import { DROP, K } from '../log/kinds.ts';
import type { Packet, PacketSink } from '../net/packet.ts';
import type { OffsetPolicy } from '../offset/policy.ts';

/** UDP and IP headers, added to a datagram's length on the simulated wire. */
export const UDP_OVERHEAD = 28;

export function datagramPacket(flow: number, payload: Uint8Array, now: number): Packet {
  return { flow, seq: 0, bytes: payload.length + UDP_OVERHEAD, isAck: false, sentAt: now, receivedAt: 0, ack: 0, payload, retransmit: false, ecn: 0 };
}

/** The simulated offset server: the shared policy behind a simulated link, one session per flow. */
export class OffsetServerNode implements PacketSink {
  out: PacketSink | null = null;

  constructor(
    private readonly policy: OffsetPolicy,
    private readonly log: EventLog,
  ) {}

  receive(packet: Packet, now: number): void {
    const d = this.policy.handle(`flow${packet.flow}`, packet.payload ?? new Uint8Array(0), now);
    const f = packet.flow;
    if (d.squishChange !== 0) this.log.push(now, K.squish, f, d.offset, 0, d.squishChange > 0 ? 1 : 0, 0);
    if (d.outcome === 'no-token') {
      this.log.push(now, K.drop, f, d.offset, packet.bytes, DROP['no-token'], 0);
      this.log.push(now, K.penalty, f, d.offset, 0, d.penalty, 0);
    } else if (d.outcome === 'lost') {
      this.log.push(now, K.drop, f, d.offset, packet.bytes, DROP['server-loss'], 0);
    }
    if (d.reply) {
      const reply = datagramPacket(f, d.reply, now);
      reply.seq = d.offset;
      this.out!.receive(reply, now);
    }
  }
}
