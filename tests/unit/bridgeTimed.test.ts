import { describe, expect, it } from 'vitest';
import { MAX_TIMED_SLIP_MS, TIMED_CATCH_UP, timedMessage } from '../../shared/bridge/protocol.ts';
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
  /** When each went out, to the microsecond. */
  const times = () => sent.map(([n, t]) => [n, Math.round(t * 1000) / 1000]);
  /** Moves the clock and lets the sender's polls run. */
  const move = async (t: number) => {
    clock.t = t;
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };
  return { timed, sent, times, push, move };
}

describe('the relay’s timed sender', () => {
  it('holds a datagram that arrived late to its spacing from the one before, as the page asked for', async () => {
    const s = sender();
    s.push(1, 94); // 6 ms late: out at once, at 100
    s.push(2, 98); // asked 4 ms after the first: due 4 ms after it less the catch-up, not at once
    const due = 100 + 4 * (1 - TIMED_CATCH_UP);
    expect(s.sent).toEqual([[1, 100]]);
    expect(s.timed.pending).toBe(1);
    await s.move(due - 0.01);
    expect(s.sent).toEqual([[1, 100]]);
    await s.move(due);
    expect(s.sent).toEqual([
      [1, 100],
      [2, due],
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

  it('keeps the spacing after a send whose turn came late, then sends the rest at their spacing', async () => {
    const s = sender();
    s.push(1, 101);
    s.push(2, 102);
    s.push(3, 103);
    await s.move(101.6); // the loop was busy: the first goes 0.6 ms late
    await s.move(102.4); // the second keeps its 1 ms after it (less 1%), not at 102
    await s.move(102.59);
    await s.move(103.5);
    await s.move(103.58);
    expect(s.times()).toEqual([
      [1, 101.6],
      [2, 102.59],
      [3, 103.58],
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
