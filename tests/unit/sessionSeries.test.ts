import { describe, expect, it } from 'vitest';
import { EventLog } from '../../shared/log/eventLog.ts';
import { DROP, ESTIMATE, K } from '../../shared/log/kinds.ts';
import { replyRateOf, roundsOf, sessionSeries } from '../../shared/metrics/sessionSeries.ts';

/** A recorded session: a burst of 3 at 10 ms, one request at 11+3 = 14 ms, a burst of 2 at 100 ms. */
function recorded(): EventLog {
  const log = new EventLog();
  log.push(0, K.estimate, 0, ESTIMATE.tokenRate, 0, 250, 0);
  for (const [t, o] of [
    [10, 0],
    [10, 1448],
    [11, 2896],
  ]) {
    log.push(t, K.send, 0, o, 30, 0, 0);
    log.push(t, K.reply, 0, o, 1480, 0, 0);
  }
  log.push(14, K.send, 0, 4344, 30, 0, 0);
  log.push(14, K.drop, 0, 4344, 30, DROP['no-token'], 0);
  log.push(14, K.penalty, 0, 4344, 0, 1, 0);
  log.push(14, K.squish, 0, 4344, 0, 1, 0);
  log.push(14, K.estimate, 0, ESTIMATE.tokenRate, 0, 62, 0);
  log.push(100, K.send, 0, 4344, 30, 0, 0);
  log.push(100, K.reply, 0, 4344, 1480, 0, 0);
  log.push(102, K.send, 0, 5792, 30, 0, 0);
  log.push(102, K.drop, 0, 5792, 30, DROP['server-loss'], 0);
  log.push(250, K.squish, 0, 5792, 0, 0, 0);
  return log;
}

describe("an offset-server session's series", () => {
  it('finds rounds from the requests’ timing: gaps of at most 2 ms are one burst', () => {
    expect(Array.from(roundsOf(recorded()))).toEqual([10, 3, 14, 1, 100, 2]);
    expect(Array.from(roundsOf(recorded(), 0))).toEqual([10, 2, 11, 1, 14, 1, 100, 1, 102, 1]);
  });

  it('counts replies per interval as a rate', () => {
    // 100 ms intervals from 0: replies at 10, 10, 11 (bin 0) and 100 (bin 1); 250 is in bin 2
    expect(Array.from(replyRateOf(recorded(), 0, 250, 100))).toEqual([0, 30, 100, 10, 200, 0]);
  });

  it('draws penalty, squish, token rate and the dots from the one log', () => {
    const s = sessionSeries(recorded());
    expect([s.startMs, s.endMs]).toEqual([0, 250]);
    expect(Array.from(s.penalty)).toEqual([0, 0, 14, 1]);
    expect(Array.from(s.run.squished)).toEqual([14, 250]);
    expect(Array.from(s.tokenRate)).toEqual([0, 250, 14, 62, 250, 62]);
    expect(Array.from(s.run.sends)).toEqual([10, 0, 10, 1448, 11, 2896, 14, 4344, 100, 4344, 102, 5792]);
    expect(Array.from(s.run.acks)).toEqual([10, 0, 10, 1448, 11, 2896, 100, 4344]);
    expect(s.binMs).toBe(100);
    expect(Array.from(s.replyRate)).toEqual([0, 30, 100, 10, 200, 0]);
  });
});
