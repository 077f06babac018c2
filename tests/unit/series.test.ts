import { describe, expect, it } from 'vitest';
import { EventLog } from '../../shared/log/eventLog.ts';
import { ESTIMATE, K } from '../../shared/log/kinds.ts';
import { capacitySeries, niceBin, runSeries } from '../../shared/metrics/series.ts';
import { parseTrace } from '../../shared/trace/mahimahi.ts';

describe('chart series from a log', () => {
  it('splits a 3-packet flight into sends, departures, delays, ACKs and the window', () => {
    const log = new EventLog();
    for (let i = 0; i < 3; i++) log.push(0, K.send, 0, i, 1500, i + 1, 3);
    for (let i = 0; i < 3; i++) log.push(0, K.enqueue, 0, i, 1500, i + 1, 0);
    log.push(1, K.depart, 0, 0, 1500, 1, 0);
    log.push(2, K.depart, 0, 1, 1500, 2, 0);
    log.push(3, K.depart, 0, 2, 1500, 3, 0);
    log.push(21, K.ack, 0, 0, 80, 21, 4);
    log.push(22, K.estimate, 0, ESTIMATE.rttMin, 0, 21, 4);
    log.push(25, K.drop, 0, 3, 1500, 0, 0);
    const s = runSeries(log, 30, null);
    expect(Array.from(s.sends)).toEqual([0, 0, 0, 1, 0, 2]);
    expect(Array.from(s.acks)).toEqual([21, 0]);
    expect(Array.from(s.drops)).toEqual([25, 3]);
    expect(Array.from(s.window)).toEqual([0, 3, 0, 3, 0, 3, 21, 4]);
    expect(Array.from(s.queueDelay)).toEqual([1, 1, 2, 2, 3, 3]);
    expect(Array.from(s.queue)).toEqual([0, 1, 0, 2, 0, 3, 1, 2, 2, 1, 3, 0]);
    expect(Array.from(s.estimates.rttMin)).toEqual([22, 21]);
    // arrivals all at 0, departures 1 2 3: one signal-delay sample of 1 ms
    expect(Array.from(s.signalDelay)).toEqual([0, 1]);
    expect(s.binMs).toBe(1);
    expect(s.throughput[1 * 2 + 1]).toBeCloseTo((1500 * 8) / 1 / 1000, 9);
  });

  it('pairs squish on/off rows into shaded periods', () => {
    const log = new EventLog();
    log.push(100, K.squish, 0, 0, 0, 1, 0);
    log.push(400, K.squish, 0, 0, 0, 0, 0);
    log.push(900, K.squish, 0, 0, 0, 1, 0);
    expect(Array.from(runSeries(log, 1000, null).squished)).toEqual([100, 400, 900, 1000]);
  });

  it('capacity per bin counts 1504-byte opportunities, looping the trace', () => {
    const c = capacitySeries(parseTrace('1\n1\n3\n4\n6'), 5, 3, false); // 0..4: 4 opps; 5..9: 6,7,7,9 → 4; 10..14: 10,12,13,13 → 4
    expect(Array.from(c)).toEqual([0, (4 * 1504 * 8) / 5000, 5, (4 * 1504 * 8) / 5000, 10, (4 * 1504 * 8) / 5000]);
  });

  it('bins are round numbers', () => {
    expect([niceBin(140_000), niceBin(3000), niceBin(10)]).toEqual([500, 10, 1]);
  });
});
