import { Rng } from '../../shared/sim/rng.ts';
import { describe, expect, it } from 'vitest';
import { dataTap } from '../../shared/link/bottleneck.ts';
import { createQueue, type QueueSpec } from '../../shared/link/queue.ts';
import { RateLink } from '../../shared/link/rateLink.ts';
import { EventLog } from '../../shared/log/eventLog.ts';
import { K } from '../../shared/log/kinds.ts';
import { Scheduler } from '../../shared/sim/scheduler.ts';
import { Capture, packet } from '../helpers/capture.ts';

function setup(mbps: number, queue: QueueSpec = { kind: 'infinite' }) {
  const s = new Scheduler();
  const log = new EventLog();
  const link = new RateLink(s, mbps, createQueue(queue, new Rng(1)), dataTap(log));
  const out = new Capture();
  link.next = out;
  const send = (at: number, bytes: number, seq = 0) => s.at(at, (now) => link.receive(packet(seq, bytes), now));
  return { s, log, out, send };
}

describe('RateLink', () => {
  it('serializes packets back to back at the rate (12 Mbit/s = 1500 bytes per ms)', () => {
    const { s, out, send } = setup(12);
    send(0, 1500, 0);
    send(0, 1500, 1);
    send(0, 750, 2);
    send(10, 1500, 3);
    s.run();
    expect(out.times).toEqual([1, 2, 2.5, 11]);
  });

  it('records queueing delay as departure minus arrival', () => {
    const { s, log, send } = setup(12);
    send(0, 1500);
    send(0, 1500);
    s.run();
    const c = log.columns;
    const departs = Array.from(c.kind).flatMap((k, i) => (k === K.depart ? [c.value[i]] : []));
    expect(departs).toEqual([1, 2]);
  });

  it('drops at the tail beyond the limit (the packet in service is not queued)', () => {
    const { s, out, log, send } = setup(12, { kind: 'packets', limit: 1 });
    send(0, 1500, 0);
    send(0, 1500, 1);
    send(0, 1500, 2);
    s.run();
    expect(out.seqs).toEqual([0, 1]);
    expect(log.count(K.drop)).toBe(1);
  });
});
