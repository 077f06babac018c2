import { describe, expect, it } from 'vitest';
import { EventLog } from '../../shared/log/eventLog.ts';
import { K } from '../../shared/log/kinds.ts';
import { linkMetrics } from '../../shared/metrics/linkMetrics.ts';
import type { FlowOutcome, RunFacts } from '../../shared/metrics/outcome.ts';
import { summarize } from '../../shared/metrics/summary.ts';
import { boundMs, DEFAULT_POLICY } from '../../shared/offset/policy.ts';
import { MAX_CHUNK } from '../../shared/offset/protocol.ts';

/** Two flows' packets through the bottleneck: flow 0 leaves at 1, 2 and 3 ms, flow 1 at 10 and 30 ms, each 20 ms on the wire after. */
function twoFlowLog(): EventLog {
  const log = new EventLog();
  for (const [flow, t, seq] of [
    [0, 1, 0],
    [0, 2, 1],
    [0, 3, 2],
    [1, 10, 0],
    [1, 30, 1],
  ]) {
    log.push(t, K.depart, flow, seq, 1504, 1, 0);
    log.push(t + 20, K.deliver, flow, seq, 1504, 21, 0);
  }
  return log;
}

const outcome = (o: Partial<FlowOutcome>): FlowOutcome => ({
  flow: 0,
  scheme: 'reno',
  startMs: 0,
  finishedAt: -1,
  exact: null,
  bytesOnWire: 0,
  retransmissions: 0,
  fileBytes: 0,
  offset: null,
  ...o,
});

function facts(workload: RunFacts['spec']['workload'], flows: FlowOutcome[], log = twoFlowLog(), kind: 'rate' | 'trace' = 'rate'): RunFacts {
  const offset = workload === 'offset' ? { policy: DEFAULT_POLICY } : null;
  return { spec: { workload, seed: 4, durationMs: 60_000, link: { kind, mbps: 10, delayMs: 20, once: false, forward: { loss: 0.01 } }, offset }, log, flows, endMs: 2500, trace: null };
}

describe('summarize', () => {
  it('a reliable transfer: seconds, goodput, overhead and the harness’s grade; a flow that never finished has none', () => {
    const done = outcome({ flow: 0, startMs: 100, finishedAt: 2100, exact: true, bytesOnWire: 300_000, retransmissions: 3, fileBytes: 250_000 });
    const s = summarize(facts('reliable', [done, outcome({ flow: 1, scheme: 'cubic', fileBytes: 250_000 })]));
    // goodput 1 Mbit/s against rMin = 2.1e6 · 1.01 / 20 = 106 050 and rTarget = 5e6: PERF floor(100 · 893 950 / 4 893 950)
    expect(s.flows[0].reliable).toEqual({
      exact: true,
      seconds: 2,
      goodputMbps: 1,
      overhead: 1.2,
      retransmissions: 3,
      grade: { goodput: 1e6, rMin: 106_050, rTarget: 5e6, label: 'PERF18' },
      // the log holds flow 0's three packets, delivered once each, and no ACK or timeout
      transfer: { timeouts: 0, firstTimerMs: 0, longestTimerMs: 0, maxRttMs: 0, spurious: 0 },
    });
    expect(s.flows[1].reliable).toMatchObject({ exact: false, seconds: Number.NaN, grade: null });
    expect(s.flows[1].scheme).toBe('cubic');
    expect(s.flows[0].offset).toBeNull();
    // on a trace the harness has no bandwidth to grade against
    expect(summarize(facts('reliable', [done], twoFlowLog(), 'trace')).flows[0].reliable!.grade).toBeNull();
  });

  it('each flow’s link figures are its own packets’; the run’s are all of them', () => {
    const log = twoFlowLog();
    const s = summarize(facts('contest', [outcome({ flow: 0 }), outcome({ flow: 1 })], log));
    expect(s.all).toEqual(linkMetrics(log));
    expect(s.flows.map((f) => f.link)).toEqual([linkMetrics(log, 0), linkMetrics(log, 1)]);
    expect(s.flows[0].link).not.toEqual(s.all);
    expect(s.flows[0].reliable).toBeNull();
    expect({ workload: s.workload, seed: s.seed, endMs: s.endMs, events: s.events, omniscient: s.omniscient }).toEqual({ workload: 'contest', seed: 4, endMs: 2500, events: 10, omniscient: null });
    expect(s.delays).toEqual({ signal95: s.all.delay95, selfInflicted95: null, perPacketOneWay95: s.all.oneWay95 });
  });

  it('an offset fetch: the server’s verdict, its own squishes only, and the bound for its chunks', () => {
    const log = twoFlowLog();
    for (const [flow, on] of [
      [0, 1],
      [0, 0],
      [1, 1],
      [0, 1],
    ])
      log.push(40, K.squish, flow, 0, 0, on, 0);
    const fetched = { size: 10 * MAX_CHUNK + 1, md5: 'abc', result: true, serverTime: 1234, penalty: 7, elapsed: 1200, requests: 15, duplicates: 2, squishedReplies: 9, errors: [] };
    const s = summarize(facts('offset', [outcome({ flow: 0, offset: fetched }), outcome({ flow: 1 })], log));
    expect(s.flows[0].offset).toEqual({ result: true, timeMs: 1234, penalty: 7, requests: 15, duplicates: 2, squishes: 2, md5: 'abc', boundMs: boundMs(DEFAULT_POLICY, 11) });
    expect(s.flows[1].offset).toBeNull();
  });
});
