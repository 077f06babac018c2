import { describe, expect, it } from 'vitest';
import { EventLog } from '../../shared/log/eventLog.ts';
import { K } from '../../shared/log/kinds.ts';
import { flowSeries, jain } from '../../shared/metrics/fairness.ts';
import { grade } from '../../shared/metrics/grade.ts';
import { linkMetrics } from '../../shared/metrics/linkMetrics.ts';
import { omniscientPoint } from '../../shared/metrics/omniscient.ts';
import { signalDelays } from '../../shared/metrics/signalDelay.ts';
import { parseTrace } from '../../shared/trace/mahimahi.ts';

// Five packets through the trace 1 1 3 4 6: (arrival, departure) = (0,1) (0,1) (0,3) (3,4) (6,7)
const ARRIVALS = [0, 0, 0, 3, 6];
const DEPARTURES = [1, 1, 3, 4, 7];

function fiveLog(): EventLog {
  const log = new EventLog();
  for (let i = 0; i < 5; i++) {
    log.push(DEPARTURES[i], K.depart, 0, i, 1504, DEPARTURES[i] - ARRIVALS[i], 0);
    log.push(DEPARTURES[i] + 20, K.deliver, 0, i, 1504, DEPARTURES[i] + 20 - ARRIVALS[i], 0);
  }
  log.push(2, K.drop, 0, 9, 1504, 0, 0);
  return log;
}

describe('signal delay', () => {
  it('for every ms, the departure of the first packet arriving at or after it, minus it', () => {
    expect(Array.from(signalDelays(ARRIVALS, DEPARTURES))).toEqual([1, 3, 2, 1, 3, 2, 1]);
  });
});

describe('linkMetrics', () => {
  it('computes the contest figures of a hand-built log', () => {
    const m = linkMetrics(fiveLog());
    const tput = (5 * 1504 * 8) / 6 / 1000; // bits over last − first departure (7 − 1 ms)
    expect(m.throughputMbps).toBeCloseTo(tput, 12);
    expect(m.packetsDelivered).toBe(5);
    expect(m.delay95).toBe(3);
    expect(m.queueDelay95).toBe(3);
    expect(m.queueDelayMean).toBeCloseTo(7 / 5, 12);
    expect(m.oneWay95).toBe(23);
    expect(m.power).toBeCloseTo(tput / 0.003, 9);
    expect(m.score).toBeCloseTo(Math.log(tput / 3), 12);
    expect(m.drops).toBe(1);
  });

  it('filters by flow', () => {
    const log = fiveLog();
    log.push(10, K.depart, 1, 0, 1500, 2, 0);
    expect(linkMetrics(log, 0).packetsDelivered).toBe(5);
    expect(linkMetrics(log, 1).packetsDelivered).toBe(1);
    expect(linkMetrics(log, 1).throughputMbps).toBe(0);
  });
});

describe('omniscient point', () => {
  it('uses every opportunity; delay is the wait for the next one at or after t', () => {
    const p = omniscientPoint(parseTrace('1\n1\n3\n4\n6'), 6);
    // per ms 0..5 the next opportunity at or after it: 1 1 3 3 4 6 → waits 1 0 1 0 0 1
    expect(p.delay95).toBe(1);
    expect(p.throughputMbps).toBeCloseTo((5 * 1504 * 8) / 6 / 1000, 12);
  });
});

describe("Jain's index", () => {
  it('is 1 for equal shares, 1/n for one taker', () => {
    expect(jain([3, 3, 3, 3])).toBe(1);
    expect(jain([1, 0, 0, 0])).toBe(0.25);
    expect(jain([1, 2])).toBeCloseTo(0.9, 12);
  });

  it('over time counts only the flows active in each interval', () => {
    const log = new EventLog();
    for (let t = 0; t < 200; t += 10) log.push(t, K.depart, 0, 0, 1000, 0, 0);
    for (let t = 100; t < 200; t += 10) log.push(t, K.depart, 1, 0, 1000, 0, 0);
    const s = flowSeries(log, 2, 100, 200, [0, 100], [Infinity, Infinity]);
    expect(Array.from(s.jain)).toEqual([1, 1]);
    expect(s.perFlow[0][0]).toBeCloseTo((10 * 8000) / 100 / 1000, 12);
    const skew = flowSeries(log, 2, 100, 200, [0, 0], [Infinity, Infinity]);
    expect(skew.jain[0]).toBe(0.5);
  });
});

describe('performance grade', () => {
  const base = { bytes: 10_000, bandwidth: 1e6, latencyMs: 10, dropPercent: 0 };
  it('OKAY above bw/2, FAIL below r_min, PERFn between', () => {
    expect(grade({ ...base, seconds: 0.1 }).label).toBe('OKAY'); // 800 kbit/s
    expect(grade({ ...base, seconds: 0.4 }).label).toBe('FAIL'); // 200 kbit/s < 210 kbit/s
    expect(grade({ ...base, seconds: 0.25 }).label).toBe('PERF37'); // ⌊100·110/290⌋
    expect(grade({ ...base, seconds: 0.25, dropPercent: 10 }).rMin).toBeCloseTo(231_000, 6);
  });
});

describe('kind codes', () => {
  it('match their position in KINDS (the CSV names)', async () => {
    const { K: codes, KINDS } = await import('../../shared/log/kinds.ts');
    KINDS.forEach((k, i) => expect(codes[k]).toBe(i));
  });
});

describe('signal delay when departures are out of arrival order', () => {
  it('takes the departure of the first packet to arrive at or after t, as mm-throughput-graph does', () => {
    // a packet arriving at 2 leaves at 10, one arriving at 4 leaves at 6 (a non-FIFO path):
    // mm-throughput-graph keys delays by arrival ms (2 → 8, 4 → 2) and fills 3 with 2 + 1
    expect(Array.from(signalDelays([2, 4], [10, 6]))).toEqual([8, 3, 2]);
    expect(Array.from(signalDelays([4, 2], [6, 10]))).toEqual([8, 3, 2]);
    // in order at first, then a packet that arrived earlier: 2 → 9, 3 → 5 (the one arriving at 4), 4 → 1
    expect(Array.from(signalDelays([2, 10, 4], [11, 12, 5]))).toEqual([9, 2, 1, 7, 6, 5, 4, 3, 2]);
    // of two packets arriving in the same ms, the one that left first counts
    expect(Array.from(signalDelays([5, 5], [9, 7]))).toEqual([2]);
  });
});

describe('self-inflicted delay', () => {
  it("is the run's 95th-percentile delay minus the omniscient sender's on the same trace", async () => {
    const { summarize } = await import('../../shared/metrics/summary.ts');
    const { contest, flow } = await import('../../shared/scenarios/presets.ts');
    const { runScenario } = await import('../../shared/scenarios/run.ts');
    const spec = contest('t', [flow('fixed', { w: 1 })]);
    spec.link = { ...spec.link, trace: 't', ackTrace: 't' };
    spec.durationMs = 6;
    // one packet in 6 ms through 1 1 3 4 6: it arrives at 0 and leaves at 1, a signal delay of 1 ms,
    // as the omniscient sender's 95th percentile (waits 1 0 1 0 0 1): nothing self-inflicted
    const s = summarize(runScenario(spec, () => parseTrace('1\n1\n3\n4\n6')));
    expect(s.all.delay95).toBe(1);
    expect(s.omniscient!.delay95).toBe(1);
    expect(s.delays).toEqual({ signal95: 1, selfInflicted95: 0, perPacketOneWay95: s.all.oneWay95 });
    const w3 = summarize(runScenario({ ...spec, flows: [flow('fixed', { w: 3 })] }, () => parseTrace('1\n1\n3\n4\n6')));
    // three arrive at 0 and leave at 1, 1, 3: the first to arrive at or after 0 leaves at 1
    expect(w3.all.delay95).toBe(1);
    expect(w3.delays.selfInflicted95).toBe(0);
  });
});
