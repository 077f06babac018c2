import { describe, expect, it } from 'vitest';
import { EventLog } from '../../shared/log/eventLog.ts';
import { ESTIMATES, K } from '../../shared/log/kinds.ts';
import { runSeries } from '../../shared/metrics/series.ts';
import { flow, offsetServer } from '../../shared/scenarios/presets.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import { applyDelta, seriesDelta } from '../../web/worker/seriesDelta.ts';

/** The first `n` rows of a log, as a live run's log stood after `n` events. */
function prefix(log: EventLog, n: number): EventLog {
  const c = log.columns;
  return EventLog.from(
    { t: c.t.slice(0, n), kind: c.kind.slice(0, n), flow: c.flow.slice(0, n), seq: c.seq.slice(0, n), bytes: c.bytes.slice(0, n), value: c.value.slice(0, n), window: c.window.slice(0, n) },
    n,
  );
}

describe('a live run’s series, tick by tick', () => {
  const { log, endMs } = runScenario(offsetServer(false, [flow('bbr', {}, 0, 200_000)]), () => {
    throw new Error('no trace needed');
  });

  it('adds up, delta after delta, to the series of the whole log', () => {
    expect(log.length).toBeGreaterThan(500);
    const cuts = [0, 1, 37, Math.floor(log.length / 3), log.length - 5, log.length];
    let series = runSeries(prefix(log, 0), 1, null);
    for (let k = 1; k < cuts.length; k++) {
      const now = prefix(log, cuts[k]);
      const end = k === cuts.length - 1 ? endMs : Math.max(1, now.columns.t[cuts[k] - 1] ?? 1);
      series = applyDelta(series, seriesDelta(now, cuts[k - 1], end));
      expect(series).toEqual(runSeries(now, end, null));
    }
    expect(series.sends.length).toBeGreaterThan(0);
  });

  it('appends each estimate’s new points to its own line', () => {
    const small = new EventLog();
    small.push(1, K.estimate, 0, 0, 0, 10, 0);
    small.push(2, K.send, 0, 0, 1000, 1, 4);
    small.push(3, K.estimate, 0, 0, 0, 12, 0);
    small.push(4, K.estimate, 0, 1, 0, 7, 0);
    const first = applyDelta(runSeries(prefix(small, 0), 1, null), seriesDelta(prefix(small, 2), 0, 2));
    const both = applyDelta(first, seriesDelta(small, 2, 4));
    expect(both.estimates).toEqual({ [ESTIMATES[0]]: Float64Array.from([1, 10, 3, 12]), [ESTIMATES[1]]: Float64Array.from([4, 7]) });
    expect(both.sends).toEqual(Float64Array.from([2, 0]));
    expect(both.window).toEqual(Float64Array.from([2, 4]));
  });

  it('sends only the new events’ points', () => {
    const d = seriesDelta(log, log.length - 3, endMs);
    const points = Object.values(d.appended).reduce((n, a) => n + a.length / 2, 0);
    expect(points).toBeLessThanOrEqual(3 * 2);
  });
});
