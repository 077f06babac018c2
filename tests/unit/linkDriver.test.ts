import { describe, expect, it } from 'vitest';
import { DROP, K } from '../../shared/log/kinds.ts';
import { DelayHistogram } from '../../server/link/histogram.ts';
import { RealTimeDriver } from '../../server/link/realTime.ts';
import { CountingLog, deliveredMbps, newStats } from '../../server/link/tap.ts';

describe('the real-time link driver', () => {
  it('runs each model event once the wall clock reaches its time, with the time it was scheduled for', async () => {
    const driver = new RealTimeDriver();
    const ran: { scheduled: number; wall: number }[] = [];
    let injectedAt = NaN;
    driver.inject((now) => {
      injectedAt = now;
      for (const after of [3, 8, 8.5]) driver.scheduler.at(now + after, (t) => ran.push({ scheduled: t, wall: driver.now }));
    });
    await new Promise((r) => setTimeout(r, 40));
    driver.stop();
    expect(ran.map((r) => r.scheduled)).toEqual([injectedAt + 3, injectedAt + 8, injectedAt + 8.5]);
    for (const r of ran) expect(r.wall).toBeGreaterThanOrEqual(r.scheduled);
  });

  it('runs nothing after stop', async () => {
    const driver = new RealTimeDriver();
    let ran = 0;
    driver.inject((now) => driver.scheduler.at(now + 5, () => ran++));
    driver.stop();
    await new Promise((r) => setTimeout(r, 15));
    expect(ran).toBe(0);
  });
});

describe('the delay histogram', () => {
  it('gives quantiles to the middle of 0.01 ms bins, late values in the last bin', () => {
    const h = new DelayHistogram();
    for (const v of [0.004, 0.015, 1, 20_000]) h.add(v);
    expect(h.count).toBe(4);
    expect(h.quantile(0)).toBeCloseTo(0.005, 9);
    expect(h.quantile(0.3)).toBeCloseTo(0.015, 9);
    expect(h.quantile(0.5)).toBeCloseTo(1.005, 9);
    expect(h.quantile(0.99)).toBeCloseTo(9999.995, 6);
    expect(h.mean).toBeCloseTo((0.004 + 0.015 + 1 + 20_000) / 4, 9);
    expect(new DelayHistogram().quantile(0.5)).toBeNaN();
  });
});

describe("the link's counting log", () => {
  it('counts drops and duplicates by direction and adjusts the bytes held', () => {
    const log = new CountingLog(10);
    log.held = 5000;
    log.push(1, K.drop, 0, 1, 1000, DROP.queue, 0);
    log.push(2, K.drop, 0, 2, 1000, DROP.loss, 0);
    log.push(3, K.drop, 0, 3, 1000, DROP['burst-loss'], 0);
    log.push(4, K.drop, 0, 4, 100, DROP['ack-loss'], 0);
    log.push(5, K.duplicate, 0, 5, 1000, 0, 0);
    log.push(6, K.duplicate, 0, 6, 100, 1, 0);
    expect(log.forward).toMatchObject({ queueDrops: 1, lossDrops: 2, duplicated: 1 });
    expect(log.reverse).toMatchObject({ queueDrops: 0, lossDrops: 1, duplicated: 1 });
    expect(log.held).toBe(5000 - 3100 + 1100);
    expect(log.length).toBe(6);
  });

  it('keeps rows up to its limit, counting each row once even when it grows', () => {
    const log = new CountingLog(5000);
    for (let i = 0; i < 6000; i++) log.push(i, K.drop, 0, i, 1, DROP.loss, 0);
    expect(log.length).toBe(5000);
    expect(log.unrecorded).toBe(1000);
    expect(log.forward.lossDrops).toBe(6000);
    expect(log.columns.t[4999]).toBe(4999);
    const none = new CountingLog(0);
    none.push(0, K.send, 0, 0, 100, 0, 0);
    expect(none.length).toBe(0);
  });

  it('measures throughput from the first delivery to the last', () => {
    const s = { ...newStats(), deliveredBytes: 12_500, firstDelivery: 10, lastDelivery: 20 };
    // 100,000 bits in 10 ms = 10 Mbit/s.
    expect(deliveredMbps(s)).toBeCloseTo(10, 9);
    expect(deliveredMbps(newStats())).toBeNaN();
  });
});
