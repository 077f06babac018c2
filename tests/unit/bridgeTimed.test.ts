import { describe, expect, it } from 'vitest';
import { timedSender } from '../../server/bridgeTimed.ts';
import { MAX_TIMED_PENDING_BYTES, timedMessage } from '../../shared/bridge/protocol.ts';

describe('the relay’s timed sends', () => {
  it('parks at most MAX_TIMED_PENDING_BYTES of datagrams; what is due now goes at once whatever is parked', () => {
    const now = 1000;
    const sent: number[] = [];
    const sender = timedSender(
      () => now,
      (d) => sent.push(d.length),
    );
    const big = new Uint8Array(60_000);
    const parked = Math.floor(MAX_TIMED_PENDING_BYTES / big.length);
    for (let i = 0; i < parked; i++) expect(sender.push(Buffer.from(timedMessage(now + 1500, big)), i + 1)).toBeNull();
    expect(sender.pending).toBe(parked);
    expect(sender.push(Buffer.from(timedMessage(now + 1500, big)), parked + 1)).toBe(`more than ${MAX_TIMED_PENDING_BYTES} bytes of timed messages waiting`);
    expect(sender.push(Buffer.from(timedMessage(now + 1500, new Uint8Array(20))), parked + 2)).toBeNull();
    expect(sender.push(Buffer.from(timedMessage(now, big)), parked + 3)).toBeNull();
    expect(sent).toEqual([60_000]);
    sender.close();
  });
});
