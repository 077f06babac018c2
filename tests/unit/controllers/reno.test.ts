import { describe, expect, it } from 'vitest';
import { RtoEstimator } from '../../../shared/controllers/rto.ts';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

describe('TCP Reno', () => {
  it('slow start to ssthresh, then +1/w per ACK; duplicate ACKs grow nothing', () => {
    const c = make('reno', { ssthresh: 4 });
    for (let i = 1; i <= 3; i++) c.onAck(ack(i - 1, 0, 50, { cumulative: i }));
    expect(c.windowSize()).toBe(4);
    c.onAck(ack(3, 0, 50, { cumulative: 4 }));
    expect(c.windowSize()).toBe(4.25);
    c.onAck(ack(9, 0, 50, { cumulative: 4 })); // duplicate
    expect(c.windowSize()).toBe(4.25);
  });

  it('halves on three duplicate ACKs and does not grow until the loss is repaired', () => {
    const c = make('reno', { ssthresh: 4 });
    for (let i = 1; i <= 4; i++) c.onAck(ack(i - 1, 0, 50, { cumulative: i }));
    for (let s = 0; s <= 10; s++) c.onSend(s, 0);
    c.onLoss(60, 4);
    expect(c.windowSize()).toBe(2.125);
    expect(c.estimates().ssthresh).toBe(2.125);
    c.onLoss(61, 5); // the same episode
    expect(c.windowSize()).toBe(2.125);
    c.onAck(ack(5, 0, 70, { cumulative: 8 })); // partial: still recovering
    expect(c.windowSize()).toBe(2.125);
    c.onAck(ack(10, 0, 80, { cumulative: 11 })); // all sent before the loss is in
    expect(c.windowSize()).toBeCloseTo(2.125 + 1 / 2.125, 12);
  });

  it('restarts from one packet on timeout with ssthresh = max(2, w/2)', () => {
    const c = make('reno', { ssthresh: 100 });
    for (let i = 1; i <= 9; i++) c.onAck(ack(i - 1, 0, 50, { cumulative: i }));
    expect(c.windowSize()).toBe(10);
    c.onTimeout(1000);
    expect(c.windowSize()).toBe(1);
    expect(c.estimates().ssthresh).toBe(5);
  });
});

describe('Reno loss episodes', () => {
  it('recovers until the highest packet sent before the loss is ACKed, a resend of an older packet not counting', () => {
    const c = make('reno', { ssthresh: 4 });
    for (let i = 1; i <= 4; i++) c.onAck(ack(i - 1, 0, 50, { cumulative: i })); // w = 4.25
    for (let s = 0; s <= 10; s++) c.onSend(s, 0);
    c.onSend(4, 55); // a resend: the episode still covers up to 10
    c.onLoss(60, 4);
    expect(c.windowSize()).toBe(2.125);
    c.onAck(ack(6, 0, 70, { cumulative: 7 }));
    c.onAck(ack(9, 0, 75, { cumulative: 10 })); // 10 itself is not ACKed yet: still recovering
    expect(c.windowSize()).toBe(2.125);
    c.onAck(ack(10, 0, 80, { cumulative: 11 }));
    expect(c.windowSize()).toBeCloseTo(2.125 + 1 / 2.125, 12);
    c.onLoss(90, 11); // recovery is over: a new episode halves again
    expect(c.windowSize()).toBe(2);
  });

  it('an episode over the first packet alone: one halving, and the ACK of that packet ends it', () => {
    const c = make('reno', { ssthresh: 100 });
    c.onAck(ack(0, 0, 50, { cumulative: 0 })); // 2
    c.onSend(0, 60);
    c.onLoss(70, 0); // ssthresh max(2, 1) = 2; recovering until 0 is ACKed
    expect(c.windowSize()).toBe(2);
    c.onAck(ack(0, 60, 110, { cumulative: 1 }));
    expect(c.windowSize()).toBe(2.5);
    const d = make('reno', { ssthresh: 100 });
    for (let i = 1; i <= 7; i++) d.onAck(ack(i - 1, 0, 50, { cumulative: i })); // 8
    d.onSend(0, 60);
    d.onLoss(70, 0);
    d.onLoss(71, 0); // the same episode
    expect(d.windowSize()).toBe(4);
  });

  it('after a timeout the next loss starts a new episode', () => {
    const c = make('reno', { ssthresh: 100 });
    for (let i = 1; i <= 9; i++) c.onAck(ack(i - 1, 0, 50, { cumulative: i })); // 10
    for (let s = 0; s <= 20; s++) c.onSend(s, 0);
    c.onLoss(60, 9); // 5, recovering until 20
    c.onTimeout(1000); // 1, ssthresh 2.5
    for (let i = 10; i <= 14; i++) c.onAck(ack(i, 0, 1100, { cumulative: i + 1 })); // 1 → 2 → 3, then +1/w
    const w = c.windowSize();
    expect(w).toBeGreaterThan(3);
    c.onLoss(1200, 15);
    expect(c.windowSize()).toBe(Math.max(2, w / 2));
    // a loss right after the timeout, before any ACK, is a new episode too: ssthresh max(2, ½) = 2
    const d = make('reno');
    d.onSend(0, 0);
    d.onLoss(10, 0);
    d.onTimeout(1000);
    d.onLoss(1010, 0);
    expect(d.windowSize()).toBe(2);
  });
});

describe('Reno timeouts', () => {
  it("RFC 6298's 1 s minimum RTO by default, Linux's 200 ms as an option", () => {
    const c = make('reno');
    c.onAck(ack(0, 0, 50, { cumulative: 1 }));
    expect(c.timeoutMs()).toBe(1000); // 50 + 4 × 25 = 150, floored at 1 s
    const linux = make('reno', { minRto: 200 });
    linux.onAck(ack(0, 0, 50, { cumulative: 1 }));
    expect(linux.timeoutMs()).toBe(200);
  });
});

describe('RTO (RFC 6298)', () => {
  it('computes SRTT, RTTVAR and RTO, backs off, and respects the bounds', () => {
    const r = new RtoEstimator(200);
    expect(r.rto).toBe(1000);
    r.sample(100);
    expect([r.srtt, r.rttvar, r.rto]).toEqual([100, 50, 300]);
    r.sample(200);
    expect([r.srtt, r.rttvar, r.rto]).toEqual([112.5, 62.5, 362.5]);
    r.back();
    expect(r.rto).toBe(725);
    r.back();
    expect(r.rto).toBe(1450);
    r.sample(100); // a new sample ends the backoff
    expect(r.rto).toBeCloseTo(110.9375 + 200, 9);
    const low = new RtoEstimator(200);
    low.sample(10);
    expect(low.rto).toBe(200);
    for (let i = 0; i < 20; i++) low.back();
    expect(low.rto).toBe(60_000);
  });
});
