import { describe, expect, it } from 'vitest';
import { PacketRing } from '../../shared/link/packetRing.ts';
import { dataPacket } from '../../shared/net/packet.ts';

describe('PacketRing', () => {
  it('gives packets back first in, first out, each with its time, across growth from a wrapped head', () => {
    const ring = new PacketRing();
    // 50 in and 40 out moves the head to slot 40 of 64; 70 more wrap it and then grow the ring twice over
    for (let s = 0; s < 50; s++) ring.push(dataPacket(0, s, 0), s * 1.5);
    for (let s = 0; s < 40; s++) expect(ring.shift().seq).toBe(s);
    for (let s = 50; s < 120; s++) ring.push(dataPacket(0, s, 0), s * 1.5);
    expect(ring.length).toBe(80);
    const out: [number, number][] = [];
    while (ring.length > 0) {
      const t = ring.headTime;
      out.push([ring.shift().seq, t]);
    }
    expect(out).toEqual(Array.from({ length: 80 }, (_, k) => [40 + k, (40 + k) * 1.5]));
  });
});
