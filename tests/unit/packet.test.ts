import { describe, expect, it } from 'vitest';
import { ACK_BYTES, ackFor, dataPacket, ECN, intoAck, PacketRecycler } from '../../shared/net/packet.ts';

describe('packets', () => {
  it('a data packet and its ACK carry what the receiver and sender read', () => {
    const d = dataPacket(2, 41, 1000, 1200);
    expect(d).toEqual({ flow: 2, seq: 41, bytes: 1200, isAck: false, sentAt: 1000, receivedAt: 0, ack: 0, retransmit: false, ecn: ECN.notEct });
    expect(ackFor(d, 1040)).toEqual({ flow: 2, seq: 41, bytes: ACK_BYTES, isAck: true, sentAt: 1000, receivedAt: 1040, ack: 41, retransmit: false, ecn: ECN.notEct });
    expect(ackFor(d, 1040, 7).ack).toBe(7);
  });

  it('a packet turned into its ACK in place is the ACK ackFor makes', () => {
    const d = { ...dataPacket(1, 9, 500), retransmit: true };
    const same = intoAck(d, 530);
    expect(same).toBe(d);
    expect(same).toEqual(ackFor(dataPacket(1, 9, 500), 530));
  });

  it('the recycler hands a released ACK back as a fresh data packet, and makes one when it has none', () => {
    const r = new PacketRecycler();
    const first = r.data(3, 0, 10, 1500);
    expect(first).toEqual(dataPacket(3, 0, 10, 1500));
    const ack = intoAck(first, 60);
    ack.retransmit = true;
    r.release(ack);
    const again = r.data(4, 1, 70, 900);
    expect(again).toBe(ack);
    expect(again).toEqual(dataPacket(4, 1, 70, 900));
    expect(r.data(4, 2, 71, 900)).not.toBe(ack);
  });
});
