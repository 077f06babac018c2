import { describe, expect, it } from 'vitest';
import type { Summary } from '../../../shared/metrics/summary.ts';
import { changedSettings, EXERCISES, nextExercise } from '../../../web/teach/exercises.ts';
import { DEFAULT_EXPERIMENT } from '../../../web/state/experiment.ts';

const run = (throughputMbps: number, delay95: number) => ({ all: { throughputMbps, delay95 }, flows: [] }) as unknown as Summary;
const delay = EXERCISES.find((x) => x.id === 'delay')!;

describe('guided exercises', () => {
  const tuned = { ...DEFAULT_EXPERIMENT, a: { scheme: 'aimd', params: { timeout: 150 } } };

  it('checks the low-delay goal on the run, saying what it lacks', () => {
    expect(delay.check!(tuned, run(4.34, 128), 'a')).toEqual({ met: true, why: '4.34 Mbit/s at 128 ms' });
    expect(delay.check!(tuned, run(3.5, 250.2), 'a')).toEqual({ met: false, why: 'needs 0.50 Mbit/s more throughput and 52 ms less delay95' });
    expect(delay.check!({ ...tuned, trace: 'TMobile-LTE-short' }, run(5, 100), 'a')).toEqual({ met: false, why: 'choose the contest on the Verizon LTE trace', off: true });
  });

  it('scores a goal only on the scenario’s own link, and not on the side the page opens with', () => {
    const shorter = { ...tuned, link: { delay: 0, queue: 'packets', queueLimit: 15 } };
    expect(changedSettings(shorter)).toEqual(['delay', 'queue', 'queueLimit']);
    expect(delay.check!(shorter, run(4.88, 100), 'a')).toEqual({
      met: false,
      why: "the goal is set on the scenario's own link; these settings change it: delay, queue, queueLimit",
      off: true,
    });
    // A value typed back to the scenario's own is no change.
    expect(changedSettings({ ...tuned, link: { delay: 20 } })).toEqual([]);
    expect(delay.check!(DEFAULT_EXPERIMENT, run(4.34, 128), 'b')).toEqual({ met: false, why: 'the page’s own example, as it opens: change its settings or its controller', off: true });
    expect(delay.check!({ ...DEFAULT_EXPERIMENT, b: { scheme: 'bdp', params: { gain: 1.6 } } }, run(4.34, 128), 'b').met).toBe(true);
    // A setting typed back to its default is still the example.
    expect(delay.check!({ ...DEFAULT_EXPERIMENT, b: { scheme: 'bdp', params: { gain: 1.75 } } }, run(4.34, 128), 'b').off).toBe(true);
  });

  it('the fixed-window goal is scored only on a side that runs the fixed window', () => {
    const window = EXERCISES.find((x) => x.id === 'window')!;
    const e = { ...DEFAULT_EXPERIMENT, b: { ...DEFAULT_EXPERIMENT.b, scheme: 'fixed' } };
    expect(window.check!(e, run(3.2, 300), 'a')).toEqual({ met: false, why: 'not the fixed window: choose it for A or B', off: true });
    expect(window.check!(e, run(3.2, 300), 'b')).toEqual({ met: true, why: '3.20 Mbit/s at 300 ms' });
  });

  it('the offset goal reads the server’s verdict', () => {
    const offset = EXERCISES.find((x) => x.id === 'offset')!;
    const summary = (penalty: number, result: boolean | null) => ({ all: {}, flows: [{ offset: { penalty, result, timeMs: 4321.4 } }] }) as unknown as Summary;
    const e = { ...DEFAULT_EXPERIMENT, scenario: 'offset' as const };
    expect(offset.check!(e, summary(3, true), 'a')).toEqual({ met: true, why: 'penalty 3 in 4321 ms' });
    expect(offset.check!(e, summary(12, true), 'a')).toEqual({ met: false, why: 'penalty 12: 3 too many' });
    expect(offset.check!(e, summary(0, false), 'a')).toEqual({ met: false, why: 'the MD5 is wrong' });
    // A kinder server is not the course's: the goal holds on its own policy.
    expect(offset.check!({ ...e, offset: { rate: 1000 } }, summary(3, true), 'a')).toEqual({
      met: false,
      why: "the goal is set on the scenario's own server and link; these settings change it: rate",
      off: true,
    });
    expect(offset.check!({ ...e, a: { scheme: 'token-pacer', params: {} } }, summary(0, true), 'a').off).toBe(true);
  });

  it('goes on to the next challenge, and round again', () => {
    expect(nextExercise('delay').id).toBe('offset');
    expect(nextExercise('matrix').id).toBe('measure');
    expect(nextExercise('measure').id).toBe(EXERCISES[0].id);
    expect(EXERCISES.find((x) => x.id === 'measure')!.href).toBe('?view=measurement&hide=1');
  });
});

describe('the held-out trace', () => {
  it('the contest exercises score the same goal on T-Mobile LTE, whatever trace is being tuned', () => {
    for (const id of ['window', 'delay']) expect(EXERCISES.find((x) => x.id === id)!.heldOut?.trace).toBe('TMobile-LTE-short');
    expect(delay.heldOut!.score(run(4.34, 128))).toEqual({ met: true, why: '4.34 Mbit/s at 128 ms' });
    expect(delay.heldOut!.score(run(5.5, 310))).toEqual({ met: false, why: 'needs 111 ms less delay95' });
    expect(EXERCISES.find((x) => x.id === 'offset')!.heldOut).toBeUndefined();
  });
});
