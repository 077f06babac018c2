import { describe, expect, it } from 'vitest';
import { MAX_TIMED_SLIP_MS, timedMessage } from '../../shared/bridge/protocol.ts';
import { timedSender } from '../../server/bridgeTimed.ts';

/** A relay's timed sender on a hand-moved clock, noting when each datagram (by number) went out. */
function sender() {
  const clock = { t: 100 };
  const sent: [number, number][] = [];
  const timed = timedSender(
    () => clock.t,
    (_d, n) => sent.push([n, clock.t]),
  );
  const push = (n: number, at: number) => expect(timed.push(Buffer.from(timedMessage(at, new Uint8Array(1))), n)).toBeNull();
  /** Moves the clock and lets the sender's polls run. */
  const move = async (t: number) => {
    clock.t = t;
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };
  return { timed, sent, push, move };
}

describe('the relay’s timed sender', () => {
  it('holds a datagram that arrived late to its spacing from the one before, as the page asked for', async () => {
    const s = sender();
    s.push(1, 94); // 6 ms late: out at once, at 100
    s.push(2, 98); // asked 4 ms after the first: due at 104, not at once
    expect(s.sent).toEqual([[1, 100]]);
    expect(s.timed.pending).toBe(1);
    await s.move(103.9);
    expect(s.sent).toEqual([[1, 100]]);
    await s.move(104);
    expect(s.sent).toEqual([
      [1, 100],
      [2, 104],
    ]);
    s.timed.close();
  });

  it('sends at once when keeping the spacing would slip the schedule over MAX_TIMED_SLIP_MS', async () => {
    const s = sender();
    s.push(1, 100 - MAX_TIMED_SLIP_MS - 30);
    s.push(2, 100 - MAX_TIMED_SLIP_MS - 26);
    expect(s.sent).toEqual([
      [1, 100],
      [2, 100],
    ]);
    expect(s.timed.pending).toBe(0);
    s.timed.close();
  });

  it('sends a datagram that came in time after a held one at its own time: the slip ends', async () => {
    const s = sender();
    s.push(1, 94);
    s.push(2, 97); // late: held to 103
    s.push(3, 102); // in time: at 103 after the second (keeping order), not at 108
    s.push(4, 105); // in time: at 105, not at 106
    for (const t of [102.9, 103, 104.9, 105]) await s.move(t);
    expect(s.sent).toEqual([
      [1, 100],
      [2, 103],
      [3, 103],
      [4, 105],
    ]);
    s.timed.close();
  });

  it('sends a datagram that came in time at its own time', async () => {
    const s = sender();
    s.push(1, 101);
    s.push(2, 102.5);
    await s.move(101);
    await s.move(102.4);
    expect(s.sent).toEqual([[1, 101]]);
    await s.move(102.5);
    expect(s.sent).toEqual([
      [1, 101],
      [2, 102.5],
    ]);
    s.timed.close();
  });
});
