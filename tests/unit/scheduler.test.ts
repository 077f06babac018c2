import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Scheduler, Timer } from '../../shared/sim/scheduler.ts';

describe('Scheduler', () => {
  it('runs events in time order, ties in the order scheduled', () => {
    const s = new Scheduler();
    const seen: string[] = [];
    s.at(5, () => seen.push('a5'));
    s.at(1, () => seen.push('b1'));
    s.at(5, () => seen.push('c5'));
    s.at(3, () => seen.push('d3'));
    s.at(1, () => seen.push('e1'));
    s.run();
    expect(seen).toEqual(['b1', 'e1', 'd3', 'a5', 'c5']);
  });

  it('keeps order across thousands of interleaved events', () => {
    const s = new Scheduler();
    const seen: number[] = [];
    for (let i = 0; i < 5000; i++) s.at((i * 7919) % 1000, (now) => seen.push(now));
    s.run();
    expect(seen.length).toBe(5000);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);
  });

  it('stops at the horizon and leaves later events pending', () => {
    const s = new Scheduler();
    const seen: number[] = [];
    s.at(10, (t) => seen.push(t));
    s.at(20, (t) => seen.push(t));
    s.run(15);
    expect(seen).toEqual([10]);
    expect(s.now).toBe(15);
    expect(s.pending).toBe(1);
  });

  it('runs events as a sorted list of (time, order scheduled) would, while the pending count crosses 32 and falls to 8 again and again', () => {
    // events scheduled from inside events, a few steps ahead (many ties), in bursts that pile up and drain
    let piledUp = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 6 })), { minLength: 1, maxLength: 400 }), (plan) => {
        const s = new Scheduler();
        const want: [number, number][] = [];
        const seen: number[] = [];
        let next = 0;
        let most = 0;
        const schedule = (at: number) => {
          const id = next++;
          want.push([Math.max(at, s.now), id]);
          s.at(at, () => {
            seen.push(id);
            const [burst, step] = plan[id % plan.length];
            for (let k = 0; k < burst % 4 && next < 3000; k++) schedule(s.now + step + k);
          });
          most = Math.max(most, s.pending);
        };
        for (const [burst, step] of plan) for (let k = 0; k < burst % 8; k++) schedule(step * 3 + k);
        s.run();
        // each event runs after all scheduled before it at its time and all due earlier
        const order = new Map(want.map(([t, id], rank) => [id, [t, rank]]));
        const sorted = [...seen].sort((x, y) => order.get(x)![0] - order.get(y)![0] || order.get(x)![1] - order.get(y)![1]);
        expect(seen).toEqual(sorted);
        expect(seen.length).toBe(want.length);
        if (most > 32) piledUp++;
      }),
      { numRuns: 300, seed: 41 },
    );
    expect(piledUp).toBeGreaterThan(100);
  });

  it('keeps ties in the order scheduled among thousands of events at a few instants', () => {
    const s = new Scheduler();
    const seen: [number, number][] = [];
    for (let i = 0; i < 3000; i++) s.at((i * 7919) % 17, (now) => seen.push([now, i]));
    s.run();
    const want = Array.from({ length: 3000 }, (_, i): [number, number] => [(i * 7919) % 17, i]).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    expect(seen).toEqual(want);
  });

  it('runs an event exactly at the horizon, and moves the clock to the horizon past the last event', () => {
    const s = new Scheduler();
    const seen: number[] = [];
    s.at(15, (t) => seen.push(t));
    s.run(15);
    expect(seen).toEqual([15]);
    s.run(40);
    expect(s.now).toBe(40);
    s.at(50, (t) => seen.push(t));
    s.run();
    expect(s.now).toBe(50);
    expect(seen).toEqual([15, 50]);
  });

  it('stop() ends the run at the event that called it; the next run goes on from there', () => {
    const s = new Scheduler();
    const seen: number[] = [];
    s.at(10, (t) => {
      seen.push(t);
      s.stop();
    });
    s.at(20, (t) => seen.push(t));
    s.run(100);
    expect(seen).toEqual([10]);
    expect(s.now).toBe(10);
    expect(s.nextAt).toBe(20);
    s.run(100);
    expect(seen).toEqual([10, 20]);
    expect(s.now).toBe(100);
    expect(s.nextAt).toBe(Infinity);
  });

  it('after(d) runs d after now', () => {
    const s = new Scheduler();
    const seen: number[] = [];
    s.at(30, () => s.after(12, (t) => seen.push(t)));
    s.run();
    expect(seen).toEqual([42]);
  });

  it('never schedules into the past', () => {
    const s = new Scheduler();
    const seen: number[] = [];
    s.at(10, () => s.at(3, (t) => seen.push(t)));
    s.run();
    expect(seen).toEqual([10]);
  });
});

describe('Timer', () => {
  it('fires once at its deadline', () => {
    const s = new Scheduler();
    const fired: number[] = [];
    const t = new Timer(s, (now) => fired.push(now));
    t.set(100);
    s.run();
    expect(fired).toEqual([100]);
    expect(t.armed).toBe(false);
  });

  it('follows a deadline pushed later without firing early, and one pulled earlier', () => {
    const s = new Scheduler();
    const fired: number[] = [];
    const t = new Timer(s, (now) => fired.push(now));
    t.set(100);
    s.at(50, () => t.set(150));
    s.at(120, () => t.set(130));
    s.run();
    expect(fired).toEqual([130]);
  });

  it('tells its deadline while armed, and Infinity once fired or cancelled', () => {
    const s = new Scheduler();
    const t = new Timer(s, () => {});
    expect(t.at).toBe(Infinity);
    t.set(70);
    expect(t.at).toBe(70);
    s.run();
    expect(t.at).toBe(Infinity);
    t.set(90);
    t.cancel();
    expect([t.at, t.armed]).toEqual([Infinity, false]);
  });

  it('does not fire once cancelled', () => {
    const s = new Scheduler();
    const fired: number[] = [];
    const t = new Timer(s, (now) => fired.push(now));
    t.set(100);
    s.at(40, () => t.cancel());
    s.run();
    expect(fired).toEqual([]);
  });

  it('pushing the deadline later on every event keeps one heap entry', () => {
    const s = new Scheduler();
    const t = new Timer(s, () => {});
    t.set(1000);
    for (let i = 1; i <= 500; i++) s.at(i, (now) => t.set(now + 1000));
    expect(s.pending).toBe(501);
    s.run(600);
    expect(s.pending).toBe(1);
  });
});
