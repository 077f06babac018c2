import { describe, expect, it } from 'vitest';
import { AckAggregation, inNetworkAtDeparture, quantizationBudget, tsoSegsGoal } from '../../../shared/controllers/bbrSizing.ts';
import type { Controller } from '../../../shared/controllers/types.ts';
import { atLeast, atMost, WindowedFilter } from '../../../shared/controllers/windowedFilter.ts';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

/** BBR v1 against Linux's tcp_bbr.c, tcp_rate.c and win_minmax.c, on scripted ACKs with hand-computed figures. */
const linux = (params = {}) => make('bbr', { variant: 'linux-v1', ...params });
const state = (c: Controller) => (c as unknown as { state: string }).state;

/** One packet a round: sent at 100·r ms, ACKed 100 ms later with `extra` other packets in flight. */
function oneByOne(c: Controller, from: number, to: number, extra = 0): void {
  for (let r = from; r < to; r++) {
    c.onSend(r, 100 * r);
    c.onAck(ack(r, 100 * r, 100 * r + 100, { inFlight: extra }));
  }
}

describe('Linux’s windowed max (win_minmax.c)', () => {
  it('keeps a sample until more than the window has passed, with second and third choices taking over', () => {
    const f = new WindowedFilter(10, atLeast, 0);
    expect(f.update(0, 5)).toBe(5);
    expect(f.update(3, 3)).toBe(5); // a quarter window passed: 3 becomes the 2nd and 3rd choice
    expect(f.update(6, 2)).toBe(5); // half passed: 2 becomes the 3rd choice
    expect(f.update(10, 1)).toBe(5); // round 0 is 10 rounds old: still in (Linux keeps it while dt ≤ window)
    expect(f.update(11, 1)).toBe(3); // now out: the 2nd choice (round 3) takes over
    expect(f.update(14, 1)).toBe(2);
    expect(f.update(30, 4)).toBe(4); // everything left the window: start again
  });

  it('starts again when every sample left the window, the initial value (at time 0) too', () => {
    const f = new WindowedFilter(10, atLeast, 0);
    f.update(0, 5);
    expect(f.update(20, 1)).toBe(1);
    expect(new WindowedFilter(10, atLeast, 5).update(20, 3)).toBe(3);
    // exactly a window old is still in it
    const g = new WindowedFilter(10, atLeast, 0);
    g.update(0, 5);
    expect(g.update(10, 1)).toBe(5);
  });

  it('takes a second choice after a quarter window and a third after half, not at the quarter or half itself', () => {
    // at the quarter (2 of 10): no second choice, so the lone first sample expires and the filter starts again
    const quarter = new WindowedFilter(10, atLeast, 0);
    quarter.update(0, 5);
    quarter.update(2, 3);
    expect(quarter.update(11, 1)).toBe(1);
    // with a second choice (round 3), no third within half a window (5): round 3's sample leaves the window with it
    for (const at of [4, 5]) {
      const half = new WindowedFilter(10, atLeast, 0);
      half.update(0, 5);
      half.update(3, 3);
      half.update(at, 2);
      expect(half.update(14, 1), `third candidate at ${at}`).toBe(1);
    }
  });

  it('passes over a second choice that left the window too, to the third', () => {
    const f = () => {
      const w = new WindowedFilter(10, atLeast, 0);
      w.update(0, 5);
      w.update(3, 3);
      w.update(8, 2); // first (0, 5), second (3, 3), third (8, 2)
      return w;
    };
    expect(f().update(14, 1)).toBe(2); // rounds 0 and 3 are both out
    expect(f().update(13, 1)).toBe(3); // round 3 is exactly a window old: still in
  });

  it('as a minimum, as TCP keeps its minimum RTT', () => {
    const f = new WindowedFilter(100, atMost, Infinity);
    expect(f.update(0, 40)).toBe(40);
    expect(f.update(50, 60)).toBe(40);
    expect(f.update(101, 70)).toBe(60);
  });
});

describe('BBR v1 as Linux runs it', () => {
  it('paces at high gain × 10 packets per ms before an RTT, then high gain × window ÷ RTT, 1% under', () => {
    const c = linux();
    expect(c.pacingRate()).toBe((739 / 256) * 10 * 0.99 * 1000); // 28578.5 packets per second
    oneByOne(c, 0, 1);
    // window 10 over 100 ms; the bandwidth sample (1 packet per 100 ms) would pace slower, and startup only rises
    expect(c.pacingRate()).toBeCloseTo(285.78515625, 9);
    expect(c.windowSize()).toBe(11);
  });

  it('takes a delivery rate over the longer of the send and ACK phases (tcp_rate.c)', () => {
    const c = linux();
    c.onSend(0, 0);
    c.onSend(1, 50);
    c.onAck(ack(0, 0, 100, { inFlight: 1 })); // 1 packet over 100 ms
    c.onSend(2, 100);
    c.onAck(ack(1, 50, 150, { inFlight: 1 })); // 2 packets over 150 ms
    // 2 delivered since packet 2 left: its ACK phase (100 → 160) is 60 ms, its send phase (0 → 100) 100 ms
    c.onAck(ack(2, 100, 160, { inFlight: 0 }));
    expect(c.estimates().bandwidth).toBeCloseTo(20, 9); // packets per second; the ACK phase alone gives 33.3
    expect(c.estimates().rttMin).toBe(60);
  });

  it('leaves startup after three rounds that raised the bandwidth by less than 25%, and not before', () => {
    const c = linux();
    oneByOne(c, 0, 3); // 1 packet per 100 ms: round 1 sets the level, rounds 2 and 3 do not raise it
    expect(state(c)).toBe('startup');
    expect(c.windowSize()).toBe(13); // one packet per ACK
    oneByOne(c, 3, 4); // the third flat round: full pipe; nothing in flight, so drain ends at once
    expect(state(c)).toBe('probe-bw');
    // the window snaps down to 2 × BDP (2 packets) + 3 one-packet bursts, rounded up to even (pacing 9.9 packets/s)
    expect(c.windowSize()).toBe(6);
    expect(c.pacingRate()).toBeCloseTo(9.9, 9); // gain 1 of a cruising phase (seed 1)

    const grows = linux();
    oneByOne(grows, 0, 2);
    grows.onSend(2, 200);
    grows.onSend(3, 200); // round 3 carries 2 packets: 25% more at least, so the count starts again
    grows.onAck(ack(2, 200, 300, { inFlight: 1 }));
    grows.onAck(ack(3, 200, 300, { inFlight: 0 }));
    oneByOne(grows, 4, 6);
    expect(state(grows)).toBe('startup');
  });

  it('neither samples nor counts a round on an ACK whose phases are both shorter than the minimum RTT', () => {
    const c = linux();
    oneByOne(c, 0, 3); // two flat rounds so far
    c.onSend(3, 300);
    c.onAck(ack(2, 200, 350, { inFlight: 0 })); // a duplicate: the sender now counts nothing in flight
    c.onSend(3, 390); // so the resend of packet 3 starts a new sampling window
    c.onAck(ack(3, 300, 400, { inFlight: 0 })); // its first copy's ACK: 10 ms since the resend, under 100
    expect(state(c)).toBe('startup'); // no third flat round
    oneByOne(c, 4, 5);
    expect(state(c)).toBe('probe-bw');
  });

  it('drains until what will be in the network at the next departure fits one BDP plus the quantization budget', () => {
    const c = linux();
    for (let s = 0; s < 20; s++) c.onSend(1000 + s, 0); // 20 packets that stay in flight
    oneByOne(c, 0, 4, 20);
    expect(state(c)).toBe('drain'); // 20 in flight > 1 packet of BDP + 3 two-packet bursts, even: 8
    expect(c.pacingRate()).toBeCloseTo(0.01 * (88 / 256) * 990, 9);
    // the next packet may leave 293.8 ms after the last send (3.4 packets/s): 1 packet gets delivered meanwhile
    c.onSend(4, 400);
    c.onAck(ack(4, 400, 500, { inFlight: 5 })); // 5 − 1 = 4 ≤ 1 + 3 one-packet bursts = 4
    expect(state(c)).toBe('probe-bw');
  });

  it('sizes with Linux’s quantization budget and departure-time estimate', () => {
    expect([50, 99, 100, 2047, 2048, 4166, 1e6].map(tsoSegsGoal)).toEqual([1, 1, 2, 2, 2, 4, 43]);
    expect(quantizationBudget(30, 1000, false)).toBe(36);
    expect(quantizationBudget(31, 1000, false)).toBe(38);
    expect(quantizationBudget(31, 1000, true)).toBe(40); // the probing phase gets two more
    expect(inNetworkAtDeparture(10, 1, 3.5, false, 1000)).toBe(7); // 3 delivered before the next departure
    expect(inNetworkAtDeparture(10, 1, 3.5, true, 1000)).toBe(9); // raising inflight: count the next burst
    expect(inNetworkAtDeparture(2, 1, 3.5, false, 1000)).toBe(0);
  });

  it('allows for ACKs that arrive in bursts: the packets beyond what the bandwidth explains, for 5 to 10 rounds', () => {
    const a = new AckAggregation();
    const bw = 0.1; // packets per ms
    a.acked(0, bw, false, 100);
    for (let i = 0; i < 5; i++) a.acked(10, bw, false, 100); // 1 packet expected by t = 10: a new epoch, then 5 at once
    expect(a.allowance(bw, true)).toBe(5);
    expect(a.allowance(bw, false)).toBe(0); // only once the pipe is full
    expect(a.allowance(0.03, true)).toBe(3); // at most 100 ms of bandwidth
    for (let r = 1; r <= 5; r++) a.acked(100 * r, bw, true, 100); // ACKs slower than the bandwidth: extras of 1
    expect(a.allowance(bw, true)).toBe(5); // the 5 is in the previous half of the window
    for (let r = 6; r <= 10; r++) a.acked(100 * r, bw, true, 2);
    expect(a.allowance(bw, true)).toBe(1); // ten rounds on it is gone
    const capped = new AckAggregation();
    for (let i = 0; i < 6; i++) capped.acked(0, bw, false, 3);
    expect(capped.allowance(bw, true)).toBe(3); // no more than the window
  });

  it('renews the minimum RTT with a sample that matches it, so no RTT probe follows', () => {
    const c = linux();
    oneByOne(c, 0, 1); // 100 ms at t = 100
    c.onSend(1, 9000);
    c.onAck(ack(1, 9000, 9100, { inFlight: 0 })); // matches the minimum: the ten seconds start again
    c.onSend(2, 10_500);
    c.onAck(ack(2, 10_500, 10_650, { inFlight: 0 }));
    expect(state(c)).not.toBe('probe-rtt');
    c.onSend(3, 19_200);
    c.onAck(ack(3, 19_200, 19_350, { inFlight: 0 })); // ten seconds after 9100 with nothing as low
    expect(state(c)).toBe('probe-rtt');
    expect(c.estimates().rttMin).toBe(150);
  });

  it('probes the RTT for 200 ms after inflight reaches 4 and a round that starts then, and marks those samples app-limited', () => {
    const c = linux({ bwRounds: 2 });
    let seq = 0;
    for (let r = 0; r < 4; r++) {
      // r + 1 packets a round, sent at once: up to 40 packets per second, growing too fast to fill the pipe
      const first = seq;
      for (let k = 0; k <= r; k++) c.onSend(seq++, 100 * r);
      for (let k = first; k < seq; k++) c.onAck(ack(k, 100 * r, 100 * r + 100, { inFlight: seq - k - 1 }));
    }
    expect(c.estimates().bandwidth).toBe(40);
    // +1 for each of the first 9 ACKs (under 10 delivered); then 19 is above 2.89 × 4 packets + budget = 18
    expect(c.windowSize()).toBe(19);
    const at = (t: number) => {
      c.onSend(seq, t);
      c.onAck(ack(seq++, t, t + 100, { inFlight: 0 }));
    };
    at(10_500); // ten seconds since the minimum (at 400): probe; inflight ≤ 4 starts the 200 ms to 10,800
    expect(state(c)).toBe('probe-rtt');
    expect(c.windowSize()).toBe(4);
    at(10_600); // a round ends, but 10,700 is not after 10,800
    at(10_700); // 10,800 is not after 10,800
    expect(state(c)).toBe('probe-rtt');
    // what is sent while probing is app-limited: three rounds on, the 2-round maximum still holds 40
    expect(c.estimates().bandwidth).toBe(40);
    at(10_800);
    expect(state(c)).toBe('startup'); // the pipe was never full
    expect(c.windowSize()).toBe(19); // the window saved before the probe
  });
  it('starts the RTT probe’s round when inflight reaches 4, not at the round then under way', () => {
    const c = linux();
    oneByOne(c, 0, 1); // minimum RTT 100 ms at t = 100
    for (let s = 1; s <= 8; s++) c.onSend(s, 10_200);
    c.onAck(ack(1, 10_200, 10_300, { inFlight: 7 })); // ten seconds on: probe; a round begins
    c.onSend(9, 10_300); // sent in that round
    for (let s = 2; s <= 8; s++) c.onAck(ack(s, 10_200, 10_300 + s, { inFlight: 9 - s })); // inflight 4 at 10,305
    c.onAck(ack(9, 10_300, 10_600, { inFlight: 0 })); // 200 ms are over, but packet 9 left before inflight was 4
    expect(state(c)).toBe('probe-rtt');
    c.onSend(10, 10_600);
    c.onAck(ack(10, 10_600, 10_700, { inFlight: 0 }));
    expect(state(c)).toBe('startup');
  });
});

describe('BBR, variant time-rounds', () => {
  /** 10 packets at t = 0 ACKed 1 ms apart from 100 ms (at most 10 per 109 ms), then 1 packet at 110 ACKed at 210. */
  function burstThenOne(variant: string): Controller {
    const c = make('bbr', { variant });
    for (let s = 0; s < 10; s++) c.onSend(s, 0);
    for (let s = 0; s < 10; s++) c.onAck(ack(s, 0, 100 + s, { inFlight: 9 - s }));
    c.onSend(10, 110);
    c.onAck(ack(10, 110, 210, { inFlight: 0 }));
    return c;
  }

  it('keeps the window within gain × what was delivered over the last minimum RTT, in startup too', () => {
    // linux-v1: 2.89 × 10/109 packets per ms × 100 ms = 27 (+ budget 34): the window keeps growing, to 21
    expect(burstThenOne('linux-v1').windowSize()).toBe(21);
    // time-rounds: 1 packet delivered in the last 100 ms: 2.89 × 1 = 3, + 3 two-packet bursts, even: 10
    expect(burstThenOne('time-rounds').windowSize()).toBe(10);
    expect(burstThenOne('time-rounds').estimates().bandwidth).toBeCloseTo(10_000 / 109, 9); // the maximum is kept
  });

  it('counts startup’s flat rounds in minimum RTTs of time: a round ends when more than one has passed', () => {
    const c = make('bbr');
    oneByOne(c, 0, 7); // ACKs every 100 ms = the minimum RTT: a time round ends every other ACK (200, 400, 600)
    expect(state(c)).toBe('startup');
    oneByOne(c, 7, 8); // 800: the third flat round
    expect(state(c)).toBe('probe-bw');
  });
});
