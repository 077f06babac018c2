import { Rng } from '../../shared/sim/rng.ts';
import { describe, expect, it } from 'vitest';
import { dataTap } from '../../shared/link/bottleneck.ts';
import { createQueue, type QueueSpec } from '../../shared/link/queue.ts';
import { TraceLink } from '../../shared/link/traceLink.ts';
import { EventLog } from '../../shared/log/eventLog.ts';
import { K } from '../../shared/log/kinds.ts';
import { Scheduler } from '../../shared/sim/scheduler.ts';
import { parseTrace } from '../../shared/trace/mahimahi.ts';
import { Capture, packet } from '../helpers/capture.ts';

function setup(trace: string, once = false, queue: QueueSpec = { kind: 'infinite' }) {
  const s = new Scheduler();
  const log = new EventLog();
  const link = new TraceLink(s, parseTrace(trace), createQueue(queue, new Rng(1)), dataTap(log), once);
  const out = new Capture();
  link.next = out;
  const send = (at: number, bytes = 1504, seq = 0) => s.at(at, (now) => link.receive(packet(seq, bytes), now));
  return { s, log, link, out, send };
}

const FIVE = '1\n1\n3\n4\n6';

describe('TraceLink (mm-link semantics) on a 5-line trace: 1 1 3 4 6', () => {
  it('serves full-size packets on the opportunities, two in millisecond 1', () => {
    const { s, out, send } = setup(FIVE);
    send(0, 1504, 0);
    send(0, 1504, 1);
    send(0, 1504, 2);
    s.run();
    expect(out.times).toEqual([1, 1, 3]);
    expect(out.seqs).toEqual([0, 1, 2]);
  });

  it('uses opportunities at t before a packet arriving at t joins the queue', () => {
    const { s, out, send } = setup(FIVE);
    send(3, 1504, 7); // the opportunity at 3 is gone by the time it joins
    s.run();
    expect(out.times).toEqual([4]);
  });

  it('counts a packet arriving mid-millisecond as arriving in that millisecond', () => {
    const { s, out, send } = setup(FIVE);
    send(3.5);
    send(4.9);
    s.run();
    expect(out.times).toEqual([4, 6]);
  });

  it('loops with the period of the last timestamp', () => {
    const { s, out, send } = setup(FIVE);
    send(6); // after 6 come 7, 7, 9, 10, 12, 13, 13 …
    send(6);
    send(6);
    send(6);
    send(11);
    s.run();
    expect(out.times).toEqual([7, 7, 9, 10, 12]);
  });

  it('stops serving after one pass when run once', () => {
    const { s, out, link, send } = setup(FIVE, true);
    send(5);
    send(6);
    s.run();
    expect(out.times).toEqual([6]);
    expect(link.queuedPackets).toBe(1);
  });

  it('packs several small packets into one opportunity, splitting the one that straddles', () => {
    const { s, out, send } = setup(FIVE);
    for (let i = 0; i < 4; i++) send(0, 500, i); // 1500 bytes fit the first 1504; the 4th takes 4 + 496
    s.run();
    expect(out.times).toEqual([1, 1, 1, 1]);
    const { s: s2, out: out2, send: send2 } = setup(FIVE);
    for (let i = 0; i < 7; i++) send2(0, 500, i); // 3500 bytes: 1504 + 1504 + 492 of the opportunity at 3
    s2.run();
    expect(out2.times).toEqual([1, 1, 1, 1, 1, 1, 3]);
  });

  it('spreads a packet larger than an opportunity over several', () => {
    const { s, out, send } = setup(FIVE);
    send(0, 3000, 0); // 1504 + 1496
    send(0, 4000, 1); // 8 bytes left at the second 1, then 1504 at 3, 1504 at 4, 984 at 6
    s.run();
    expect(out.times).toEqual([1, 6]);
  });

  it('loses what is left of an opportunity when the queue runs dry', () => {
    const { s, out, send } = setup(FIVE);
    send(0, 1000, 0);
    send(2, 1000, 1); // the 504 bytes left at 1 are gone; it waits for 3
    s.run();
    expect(out.times).toEqual([1, 3]);
  });

  it('logs arrivals and departures with the queueing delay', () => {
    const { s, log, send } = setup(FIVE);
    send(0);
    send(0);
    send(0);
    s.run();
    const c = log.columns;
    expect(Array.from(c.kind)).toEqual([K.enqueue, K.enqueue, K.enqueue, K.depart, K.depart, K.depart]);
    expect(Array.from(c.value.slice(0, 3))).toEqual([1, 2, 3]);
    expect(Array.from(c.value.slice(3))).toEqual([1, 1, 3]);
  });

  it('drops at the tail when the queue is full, by packets or by bytes', () => {
    const a = setup(FIVE, false, { kind: 'packets', limit: 2 });
    for (let i = 0; i < 4; i++) a.send(0, 1504, i);
    a.s.run();
    expect(a.out.seqs).toEqual([0, 1]);
    expect(a.log.count(K.drop)).toBe(2);
    const b = setup(FIVE, false, { kind: 'bytes', limit: 2000 });
    b.send(0, 1500, 0);
    b.send(0, 1500, 1);
    b.send(0, 400, 2);
    b.s.run();
    expect(b.out.seqs).toEqual([0, 2]);
  });

  it('skips a long idle stretch of a looping trace without losing its phase', () => {
    const { s, out, send } = setup(FIVE);
    send(6_000_001); // 6_000_000 is a whole number of periods; the next opportunities are +1, +1
    s.run();
    expect(out.times).toEqual([6_000_003]);
  });

  it('finds the next opportunity after any idle gap, near or many periods away', () => {
    // opportunities at every even millisecond: 2, 4, …, 1000 (the period); each packet arrives at an idle link
    const { s, out, send } = setup(Array.from({ length: 500 }, (_, i) => 2 * (i + 1)).join('\n'));
    const arrivals = [0, 5, 7, 9.5, 41, 333, 998, 1001, 1003.5, 2500, 2999.5, 7999, 31_337, 31_340];
    arrivals.forEach((t, i) => send(t, 1504, i));
    s.run();
    // a packet arriving in millisecond m leaves on the first even millisecond after m
    expect(out.times).toEqual(arrivals.map((t) => Math.floor(t) + 2 - (Math.floor(t) % 2)));
  });
});
