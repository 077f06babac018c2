import { describe, expect, it } from 'vitest';
import { EventLog } from '../../shared/log/eventLog.ts';
import { K } from '../../shared/log/kinds.ts';
import { linkMetrics } from '../../shared/metrics/linkMetrics.ts';
import { SampleStream } from '../../shared/metrics/sampleStream.ts';

/**
 * Two flows: departures at 10, 12 (flow 0) and 14 ms (flow 1) after 2, 3 and 4 ms in the queue, so
 * arrivals at 8, 9 and 10 ms; three deliveries, one drop (flow 1), and rows the figures do not read.
 */
function fill(log: EventLog, q = [2, 3, 4]): EventLog {
  log.push(0, K.send, 0, 0, 1500, 0, 10);
  log.push(10, K.depart, 0, 0, 1500, q[0], 0);
  log.push(11, K.enqueue, 1, 0, 1500, 1, 0);
  log.push(12, K.depart, 0, 1, 1500, q[1], 0);
  log.push(13, K.drop, 1, 1, 1500, 0, 0);
  log.push(14, K.depart, 1, 0, 1500, q[2], 0);
  log.push(30, K.deliver, 0, 0, 1500, 22, 0);
  log.push(33, K.deliver, 0, 1, 1500, 23.5, 0);
  log.push(36, K.deliver, 1, 0, 1500, 24, 0);
  return log;
}

describe('a log that keeps no rows', () => {
  it('counts its rows and refuses to show them', () => {
    const log = fill(EventLog.streaming(new SampleStream(2)));
    expect([log.length, log.count(K.depart), log.count(K.drop)]).toEqual([9, 3, 1]);
    expect(() => log.columns).toThrow('this run kept no rows');
  });

  it('gives the figures of its samples, for all flows and for each', () => {
    const log = fill(EventLog.streaming(new SampleStream(2)));
    const all = linkMetrics(log);
    // 3 × 1500 bytes over the 4 ms from the first departure to the last; signal delays 2, 3 and 4 ms at 8, 9 and 10 ms
    expect(all).toEqual({ throughputMbps: 9, packetsDelivered: 3, queueDelayMean: 3, queueDelay95: 4, delay95: 4, oneWay95: 24, power: 2250, score: Math.log(9 / 4), drops: 1 });
    expect(linkMetrics(log, 0)).toMatchObject({ throughputMbps: 12, packetsDelivered: 2, queueDelayMean: 2.5, delay95: 3, oneWay95: 23.5, drops: 0 });
    expect(linkMetrics(log, 1)).toMatchObject({ throughputMbps: 0, packetsDelivered: 1, delay95: 4, oneWay95: 24, drops: 1 });
  });

  it('gives what the same rows stored give, to the bit, values rounded as the log stores them', () => {
    const q = [2.1, 3.3, 0.7];
    const streamed = fill(EventLog.streaming(new SampleStream(2)), q);
    const stored = fill(new EventLog(), q);
    for (const flow of [-1, 0, 1]) expect(linkMetrics(streamed, flow)).toEqual(linkMetrics(stored, flow));
  });
});
