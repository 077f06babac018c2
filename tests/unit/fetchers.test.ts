import { describe, expect, it } from 'vitest';
import { ChunkLedger } from '../../shared/endpoints/chunkLedger.ts';
import { BaseController, type Controller } from '../../shared/controllers/types.ts';
import { BurstFetcher, type FetchContext, type Fetcher, WindowFetcher } from '../../shared/endpoints/fetchers.ts';
import { Pacer } from '../../shared/endpoints/pacer.ts';
import { EventLog } from '../../shared/log/eventLog.ts';
import { MAX_CHUNK } from '../../shared/offset/protocol.ts';
import { createController } from '../../shared/scenarios/run.ts';
import { Scheduler, Timer } from '../../shared/sim/scheduler.ts';

describe('pacer', () => {
  it('spaces sends 1000/rate ms apart and wakes the sender when the next may go', () => {
    const s = new Scheduler();
    const woke: number[] = [];
    const p = new Pacer(new Timer(s, (now) => woke.push(now)));
    expect(p.hold(0, 250)).toBe(false); // next slot at 4
    expect(p.hold(1, 250)).toBe(true);
    expect(p.hold(4, 250)).toBe(false); // next at 8
    expect(p.hold(20, 250)).toBe(false); // late: the slot after is 24, not 12
    expect(p.hold(23, 250)).toBe(true);
    expect(p.hold(5, Infinity)).toBe(false);
    s.run(100);
    expect(woke).toEqual([24]);
  });

  it('holds a round until n sends’ worth of time after its start', () => {
    const s = new Scheduler();
    const woke: number[] = [];
    const p = new Pacer(new Timer(s, (now) => woke.push(now)));
    expect(p.holdRound(10, 0, 10, 250)).toBe(true); // 10 sends at 250/s: 40 ms
    expect(p.holdRound(40, 0, 10, 250)).toBe(false);
    expect(p.holdRound(10, 0, 10, Infinity)).toBe(false);
    s.run(100);
    expect(woke).toEqual([40]);
  });
});

/**
 * A fetch of `chunks` chunks by `make`'s fetcher from a server that answers each request 5 ms later,
 * except the chunks in `lose` the first time they are asked for; every request as [time, chunk].
 */
function fetchWith(make: (x: FetchContext) => Fetcher, controller: Controller, chunks: number, lose = new Set<number>()) {
  const clock = new Scheduler();
  const ledger = new ChunkLedger(chunks * MAX_CHUNK);
  const sent: [number, number][] = [];
  const fetcher: Fetcher = make({
    clock,
    log: new EventLog(),
    flow: 0,
    controller,
    ledger,
    request(chunk, now) {
      sent.push([now, chunk]);
      ledger.requested(chunk, now);
      controller.onSend(chunk, now);
      if (lose.delete(chunk)) return;
      clock.at(now + 5, (t) => {
        ledger.store(chunk, new Uint8Array(MAX_CHUNK));
        if (!ledger.release(chunk)) return;
        controller.onAck({ seq: chunk, sentAt: now, receivedAt: t, now: t, cumulative: ledger.received, inFlight: ledger.inFlight });
        fetcher.answered(chunk, t);
      });
    },
  });
  fetcher.start(0, 0);
  clock.run(1000);
  const at = (t: number) => sent.filter(([when]) => when === t).map(([, c]) => c);
  return { sent, at, ledger };
}

/** A controller that asks for the same window and burst throughout, and waits 10 ms. */
class Steady extends BaseController {
  constructor(
    private readonly w: number,
    private readonly burst: number,
  ) {
    super();
  }
  windowSize = () => this.w;
  burstSize = () => this.burst;
  timeoutMs = () => 10;
}

describe('burst fetcher', () => {
  it('sends a burst, waits the timeout even when every reply is in, +2 for a full round, halves after a missing reply', () => {
    const { sent, at, ledger } = fetchWith((x) => new BurstFetcher(x), createController('burst-aimd', {}), 20, new Set([12]));
    expect(at(0)).toEqual([0, 1, 2, 3]); // the first wait: 2 × the 100 ms assumed RTT
    expect(at(200)).toEqual([4, 5, 6, 7, 8, 9]); // then 2 × 5 ms, floored at 10 ms
    expect(at(210)).toEqual([10, 11, 12, 13, 14, 15, 16, 17]);
    expect(at(220)).toEqual([18, 19, 12]); // 12 went missing: 8 → 4, and it is asked again
    expect(sent.length).toBe(21);
    expect(ledger.complete).toBe(true);
  });

  it('sends whole bursts, as the skeleton does: 2.5 asks for 2 a round, and 0 still for 1', () => {
    expect(fetchWith((x) => new BurstFetcher(x), new Steady(1, 2.5), 6).at(10)).toEqual([2, 3]);
    const none = fetchWith((x) => new BurstFetcher(x), new Steady(1, 0), 3);
    expect(none.sent).toEqual([
      [0, 0],
      [10, 1],
      [20, 2],
    ]);
    expect(none.ledger.complete).toBe(true);
  });
});

describe('window fetcher', () => {
  it('keeps a whole window of requests out: 2.5 keeps 2, and 0.4 keeps 1', () => {
    // each reply, 5 ms after its request, lets the next request go
    expect(fetchWith((x) => new WindowFetcher(x), new Steady(2.5, 1), 6).sent).toEqual([
      [0, 0],
      [0, 1],
      [5, 2],
      [5, 3],
      [10, 4],
      [10, 5],
    ]);
    expect(fetchWith((x) => new WindowFetcher(x), new Steady(0.4, 1), 2).sent).toEqual([
      [0, 0],
      [5, 1],
    ]);
  });
});
