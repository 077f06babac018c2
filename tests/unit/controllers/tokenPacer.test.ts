import { describe, expect, it } from 'vitest';
import { ack } from '../../helpers/capture.ts';
import { make } from './helpers.ts';

describe('token pacer', () => {
  it('paces under the token rate, spends the tokens lost requests leave, and judges the rate per window of requests', () => {
    const c = make('token-pacer', { maxRate: 1000 });
    expect(c.timeoutMs()).toBe(60); // 4 × the 15 ms assumed before any reply
    expect(c.windowSize()).toBe(17); // ⌈250/s × 60 ms⌉ + 2
    expect(c.pacingRate()).toBeCloseTo(242.5, 12);
    for (let s = 0; s < 20; s++) c.onSend(s, s);
    for (let s = 0; s < 15; s++) c.onAck(ack(s, s, s + 10));
    expect(c.timeoutMs()).toBe(40);
    c.onLoss(59, -1); // 15–19 unanswered for 40 ms: 5 lost, 5 spare tokens; 25% unanswered keeps the rate
    expect(c.pacingRate()).toBeCloseTo(242.5, 12);
    c.onSend(20, 60); // a spare token: the next request rides right behind this one
    expect(c.pacingRate()).toBe(Infinity);
    c.onSend(21, 60);
    expect(c.pacingRate()).toBeCloseTo(242.5, 12);
    for (let s = 22; s < 40; s++) c.onSend(s, 60 + s);
    for (let s = 20; s < 40; s++) c.onAck(ack(s, 60 + s, 70 + s)); // all answered: ×1.25
    expect(c.pacingRate()).toBeCloseTo(312.5 * 0.97, 12);
  });

  it('an extra that goes unanswered leaves no spare token, so silence never breeds more extras', () => {
    const c = make('token-pacer');
    for (let s = 0; s < 3; s++) c.onSend(s, 4 * s);
    c.onAck(ack(0, 0, 1));
    c.onAck(ack(1, 4, 5));
    c.onLoss(100, -1); // 2 unanswered past the 15 ms floor: it left its token, one spare
    c.onSend(3, 100);
    expect(c.pacingRate()).toBe(Infinity);
    c.onSend(4, 100); // the extra
    expect(c.pacingRate()).toBeCloseTo(242.5, 12);
    c.onLoss(200, -1); // 3 and 4 unanswered: only the paced one left a token
    c.onSend(5, 200);
    expect(c.pacingRate()).toBe(Infinity);
    c.onSend(6, 200);
    c.onSend(7, 204);
    expect(c.pacingRate()).toBeCloseTo(242.5, 12); // no second extra
  });

  it('falls to what the answers say when far more go unanswered than the server loses', () => {
    const c = make('token-pacer');
    for (let s = 0; s < 20; s++) c.onSend(s, 0);
    for (let s = 0; s < 10; s++) c.onAck(ack(s, 0, 10));
    c.onLoss(100, -1); // 50% unanswered: rate × max(0.5, 0.5 / 0.89)
    expect(c.estimates().pacingRate).toBeCloseTo(250 * (0.5 / 0.89) * 0.97, 9);
  });
});
