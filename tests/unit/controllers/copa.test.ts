import { describe, expect, it } from 'vitest';
import { K } from '../../../shared/log/kinds.ts';
import { summarize } from '../../../shared/metrics/summary.ts';
import { contest, flow } from '../../../shared/scenarios/presets.ts';
import { runScenario } from '../../../shared/scenarios/run.ts';
import { loadTrace } from '../../../server/traces.ts';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

describe('Copa', () => {
  it('slow-starts while the rate is under 1/(δ·dq), then moves by v/(δ·w) per ACK and paces at 2w/RTTstanding', () => {
    const c = make('copa');
    expect(c.windowSize()).toBe(10);
    for (let i = 0; i < 5; i++) c.onAck(ack(i, i, 100 + i)); // RTT 100, no queueing: +1 each
    expect(c.windowSize()).toBe(15);
    expect(c.pacingRate()).toBeCloseTo((2 * 15 * 1000) / 100, 9);
    // RTT 200 alone in the last srtt/2: dq = 100, and 15 × 0.5 × 100 > 200: the rate is above target
    c.onAck(ack(5, 800, 1000));
    expect(c.windowSize()).toBeCloseTo(15 - 1 / (0.5 * 15), 12);
    expect(c.pacingRate()).toBeCloseTo((2 * (15 - 1 / 7.5) * 1000) / 200, 9);
  });

  it('RTTstanding is the smallest RTT of the last srtt/2, a sample exactly srtt/2 old included', () => {
    const c = make('copa');
    c.onAck(ack(0, 0, 100)); // RTT 100: srtt 100, w 11
    // RTT 116 at 151: srtt 87.5 + 14.5 = 102, so the last srtt/2 starts at 151 − 51 = 100, the first sample's time
    c.onAck(ack(1, 35, 151));
    expect(c.windowSize()).toBe(12);
    expect(c.pacingRate()).toBe((2 * 12 * 1000) / 100);
  });

  it('keeps slow-starting while the rate is exactly at the target: w·δ·dq = RTTstanding', () => {
    const c = make('copa', { delta: 1 });
    c.onAck(ack(0, 0, 100)); // RTT 100: the minimum; w 11
    // RTT 110 alone in the last srtt/2: dq = 10, and 11 × 1 × 10 = 110
    c.onAck(ack(1, 90, 200));
    expect(c.windowSize()).toBe(12);
  });

  it('a larger δ moves in smaller steps', () => {
    const c = make('copa', { delta: 1 });
    for (let i = 0; i < 5; i++) c.onAck(ack(i, i, 100 + i));
    c.onAck(ack(5, 800, 1000));
    expect(c.windowSize()).toBeCloseTo(15 - 1 / 15, 12);
  });

  it('doubles its velocity once the window has moved the same way for three rounds, and starts again from 1 on the first ACK that turns it', () => {
    // With no sends recorded every ACK ends a round. Five ACKs at RTT 100 end slow start at w = 15; from
    // then on ACKs 100 ms apart each see only their own RTT in the last srtt/2.
    const c = make('copa');
    for (let i = 0; i < 5; i++) c.onAck(ack(i, i, 100 + i));
    let w = 15;
    const step = (v: number, sign: number) => (w = Math.max(2, w + (sign * v) / (0.5 * w)));
    // RTT 200: queueing 100 ms, above the target rate: down, at velocities 1 (turn from slow start), 1, 1, 1,
    // then 2 and 4 once three rounds went down
    for (const [k, v] of [1, 1, 1, 1, 2, 4].entries()) {
      c.onAck(ack(5 + k, 800 + 100 * k, 1000 + 100 * k));
      expect(c.windowSize(), `down ${k}`).toBeCloseTo(step(v, -1), 12);
    }
    // RTT 100 again: no queueing, below the target: up, and not at the 8 reached going down but at 1
    c.onAck(ack(11, 1500, 1600));
    expect(c.windowSize()).toBeCloseTo(step(1, 1), 12);
    c.onAck(ack(12, 1600, 1700));
    expect(c.windowSize()).toBeCloseTo(step(1, 1), 12);
    expect(c.estimates()).toMatchObject({ rttMin: 100, pacingRate: (2 * w * 1000) / 100 });
  });

  it('a turn in the middle of a round judges the round from the window at the turn', () => {
    // Down at a velocity above 1, then, within one round, up: the turn resets the velocity to 1 and the round
    // that ends after it went up (from the turn), though the window is still below where the round began.
    const c = make('copa');
    for (let i = 0; i < 5; i++) c.onAck(ack(i, i, 100 + i));
    for (let k = 0; k < 5; k++) c.onAck(ack(5 + k, 800 + 100 * k, 1000 + 100 * k));
    let t = 1400;
    const at = (seq: number, rtt: number) => c.onAck(ack(seq, (t += 100) - rtt, t));
    c.onSend(100, 1450); // the round that begins at the next ACK ends with the ACK of packet 100 or later
    at(10, 200);
    at(11, 200);
    at(12, 200); // down, at the velocity built up
    at(13, 100); // no queue: up, the turn
    at(101, 100); // the round ends: up since the turn, the first of three
    at(102, 100);
    at(103, 100); // the third round up: the velocity doubles
    const w = c.windowSize();
    at(104, 100);
    expect(c.windowSize() - w).toBeCloseTo(2 / (0.5 * w), 12);
  });

  it('keeps a windowed minimum RTT over 10 s (Linux’s three-sample filter): an old minimum gives way to the next smallest, not to the RTT of the moment', () => {
    const c = make('copa');
    c.onAck(ack(0, 0, 100)); // 100 ms at 0.1 s
    c.onAck(ack(1, 4900, 5005)); // 105 ms at 5 s
    // then a queue: 300 ms every half second
    for (let t = 5500; t <= 11_000; t += 500) c.onAck(ack(t, t - 300, t));
    // 10 s after the 100 ms sample, the 105 ms one of 5 s ago is the minimum (queueing 195 ms, not 0)
    expect(c.estimates().rttMin).toBe(105);
    for (let t = 11_500; t <= 15_500; t += 500) c.onAck(ack(t, t - 300, t));
    expect(c.estimates().rttMin).toBe(300);
  });

  it('a timeout drops the window to 2 and the velocity to 1, and backs the RTO off', () => {
    const c = make('copa');
    for (let i = 0; i < 5; i++) c.onAck(ack(i, i, 100 + i));
    const rto = c.timeoutMs();
    c.onTimeout(2000);
    expect(c.windowSize()).toBe(2);
    expect(c.timeoutMs()).toBe(2 * rto);
  });
});

describe('Copa on the bundled cellular traces', () => {
  // Before a turn reset the velocity at once and the minimum RTT was a windowed one, an outage let the
  // velocity carry the window past 65,000 packets and seconds of queue (T-Mobile LTE: delay95 2.5 s; AT&T
  // LTE: 203 s; Verizon EVDO: 608 s).
  it.for([
    ['TMobile-LTE-short', 7.45, 164],
    ['ATT-LTE-driving', 1.25, 555],
    ['Verizon-EVDO-driving', 0.31, 2153],
  ] as const)('%s: the window stays within a few pipes, at %s Mbit/s and delay95 %s ms', ([trace, mbps, delay95]) => {
    const r = runScenario(contest(trace, [flow('copa')]), loadTrace);
    const c = r.log.columns;
    let most = 0;
    for (let i = 0; i < r.log.length; i++) if (c.kind[i] === K.ack && c.window[i] > most) most = c.window[i];
    expect(most).toBeLessThan(200);
    const all = summarize(r).all;
    expect(all.throughputMbps.toFixed(2)).toBe(mbps.toFixed(2));
    expect(all.delay95).toBe(delay95);
  });
});
