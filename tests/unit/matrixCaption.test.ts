import { describe, expect, it } from 'vitest';
import type { FlowSummary } from '../../shared/metrics/summary.ts';
import { transferFacts } from '../../shared/metrics/transfer.ts';
import { EventLog } from '../../shared/log/eventLog.ts';
import { K } from '../../shared/log/kinds.ts';
import { rowCaption } from '../../shared/scenarios/matrixCaption.ts';
import { MATRIX } from '../../shared/scenarios/presets.ts';

type Run = NonNullable<FlowSummary['reliable']>;
const HALF_DROPPED = MATRIX[11];
const SLOW_FAR = MATRIX[8];

function run(seconds: number, transfer: Partial<Run['transfer']> = {}, overhead = 1.05, label = 'OKAY'): Run {
  return {
    exact: !Number.isNaN(seconds),
    seconds,
    goodputMbps: 1,
    overhead,
    retransmissions: 0,
    grade: Number.isNaN(seconds) ? null : ({ label } as Run['grade']),
    transfer: { timeouts: 0, firstTimerMs: 0, longestTimerMs: 0, maxRttMs: 20, spurious: 0, ...transfer },
  };
}

describe("a matrix row's caption", () => {
  it('says nothing when every seed passed with the file sent about once', () => {
    expect(rowCaption(SLOW_FAR, [run(9), run(9.5)])).toBeNull();
  });

  it("names the harness's limit and RFC 6298's backoff when the timer doubled, with the chance a packet and its ACK get through", () => {
    const late = run(NaN, { timeouts: 6, firstTimerMs: 2000, longestTimerMs: 16_000 }, 0.75);
    expect(rowCaption(HALF_DROPPED, [late, run(20, {}, 2.5)])).toBe(
      "1 of 2 seeds ran past the harness's 30 s limit: RFC 6298 backoff doubled the timer after each timeout in a row, up to 16 s: with 50% loss each way a packet and its ACK both get through 25% of the time, so timeouts come in runs, and the sender spent the time waiting; bytes on the wire: 0.75×–2.5× the file.",
    );
  });

  it('says a timer that never backs off fired, without speaking of backoff', () => {
    expect(rowCaption(HALF_DROPPED, [run(NaN, { timeouts: 40, firstTimerMs: 1000, longestTimerMs: 1000 })])).toBe("1 of 1 seeds ran past the harness's 30 s limit; the timer fired up to 40 times.");
  });

  it('explains spurious retransmissions by a timer shorter than the RTT under queueing, and the bytes on the wire', () => {
    const r = run(12, { timeouts: 9, firstTimerMs: 1000, longestTimerMs: 1000, maxRttMs: 1970, spurious: 80 }, 2.3, 'PERF63');
    expect(rowCaption(SLOW_FAR, [r])).toBe(
      '80 spurious retransmissions (segments the receiver already had): the timer (1 s) is shorter than the RTT under queueing (up to 1.97 s), so it fires for packets still on their way; bytes on the wire: 2.3× the file.',
    );
  });
});

describe("a transfer's facts from its log", () => {
  it('counts timeouts, the first and longest timer, the longest RTT, and deliveries again beyond the link’s duplicates', () => {
    const log = new EventLog();
    log.push(10, K.ack, 0, 0, 80, 120, 1);
    log.push(20, K.deliver, 0, 1, 1500, 10, 0);
    log.push(30, K.timeout, 0, -1, 0, 2000, 1);
    log.push(40, K.deliver, 0, 1, 1500, 10, 0); // again: spurious
    log.push(50, K.duplicate, 0, 2, 1500, 0, 0);
    log.push(51, K.deliver, 0, 2, 1500, 10, 0);
    log.push(52, K.deliver, 0, 2, 1500, 10, 0); // the link's copy
    log.push(60, K.timeout, 0, -1, 0, 4000, 1);
    log.push(70, K.ack, 0, 1, 80, 300, 1);
    log.push(80, K.timeout, 1, -1, 0, 9000, 1); // another flow's
    expect(transferFacts(log, 0)).toEqual({ timeouts: 2, firstTimerMs: 2000, longestTimerMs: 4000, maxRttMs: 300, spurious: 1 });
  });
});
