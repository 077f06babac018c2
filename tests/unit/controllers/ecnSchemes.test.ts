import { describe, expect, it } from 'vitest';
import { cubic } from '../../../shared/controllers/cubic.ts';
import { dctcp } from '../../../shared/controllers/dctcp.ts';
import { prague } from '../../../shared/controllers/prague.ts';
import { reno } from '../../../shared/controllers/reno.ts';
import { type Controller, type Scheme, withDefaults } from '../../../shared/controllers/types.ts';
import { ack } from '../../helpers/capture.ts';

const make = (s: Scheme): Controller => s.create(withDefaults(s.params));

/**
 * Sends 0, ACKs it, sends 1–2, ACKs them, sends 3–6, ACKs 3 (all unmarked, slow start: the window 5).
 * DCTCP's rounds end at the ACK of the last packet sent before the last update (Linux's snd_una ≥ next_seq):
 * at the ACKs of 0 (next round's end: 0), 1 (end 2), 2 (end 2) and 3 (end 6): α = (15/16)⁴.
 */
function warm(c: Controller): void {
  const send = (from: number, to: number) => {
    for (let s = from; s <= to; s++) c.onSend(s, 0);
  };
  send(0, 0);
  c.onAck(ack(0, 0, 20, { ce: false }));
  send(1, 2);
  c.onAck(ack(1, 20, 40, { ce: false }));
  c.onAck(ack(2, 20, 40, { ce: false }));
  send(3, 6);
  c.onAck(ack(3, 40, 60, { ce: false }));
  expect(c.windowSize()).toBe(5);
}

describe('ECN in the classic schemes (RFC 3168)', () => {
  it('Reno and CUBIC send ECT(0); an echo halves Reno once per window, as a loss would', () => {
    expect(make(reno).ecn).toBe('ect0');
    expect(make(cubic).ecn).toBe('ect0');
    const c = make(reno);
    warm(c);
    c.onAck(ack(4, 40, 61, { ce: true }));
    expect(c.windowSize()).toBe(2.5);
    c.onAck(ack(5, 40, 62, { ce: true })); // sent before the cut: the same window
    expect(c.windowSize()).toBe(2.5);
  });

  it('CUBIC takes an echo as a loss: the window times β', () => {
    const c = make(cubic);
    warm(c);
    c.onAck(ack(4, 40, 61, { ce: true }));
    expect(c.estimates().ssthresh).toBe(5 * 0.7); // the echo first cuts, then the ACK counts
    c.onAck(ack(5, 40, 62, { ce: true })); // the same window: no second cut
    expect(c.estimates().ssthresh).toBe(5 * 0.7);
  });
});

describe('DCTCP (RFC 8257)', () => {
  it('sends ECT(1), keeps α per window with g = 1/16, and cuts w × (1 − α/2) once per window of marks', () => {
    const c = make(dctcp);
    expect(c.ecn).toBe('ect1');
    warm(c);
    const alpha = (15 / 16) ** 4;
    c.onAck(ack(4, 40, 61, { ce: true })); // round not over (ends at 6): α as it was
    expect(c.windowSize()).toBe(5 * (1 - alpha / 2));
    c.onAck(ack(5, 40, 62, { ce: true })); // the same window: no second cut
    expect(c.windowSize()).toBe(5 * (1 - alpha / 2));
  });

  it('a loss halves the window, whatever α', () => {
    const c = make(dctcp);
    warm(c);
    c.onLoss(61, 4);
    expect(c.windowSize()).toBe(2.5);
  });
});

describe('TCP Prague (tcp_prague.c)', () => {
  it('holds α at 1 until the first mark, grows on unmarked ACKs in the cut round, and paces at w/srtt', () => {
    const c = make(prague);
    expect(c.ecn).toBe('ect1');
    warm(c);
    c.onAck(ack(4, 40, 61, { ce: true })); // no CE before: α still 1, so the cut is a half
    expect(c.windowSize()).toBe(2.5);
    c.onAck(ack(5, 40, 62, { ce: true })); // marked: no growth, no second cut
    expect(c.windowSize()).toBe(2.5);
    c.onAck(ack(6, 40, 62, { ce: false })); // unmarked: 1/w, though the round of the cut is not over
    expect(c.windowSize()).toBe(2.5 + 1 / 2.5);
    // srtt: RTT samples 20, 20, 20, 20, 21, 22, 22 (RFC 6298 smoothing); w ≥ ssthresh/2: 100% of w/srtt
    let srtt = 20;
    for (const rtt of [20, 20, 20, 21, 22, 22]) srtt = 0.875 * srtt + 0.125 * rtt;
    expect(c.pacingRate()).toBeCloseTo(((2.5 + 1 / 2.5) * 1000) / srtt, 9);
  });

  it('an echo on the ACK that ends a round cuts with the α of the rounds before, then α takes the round in (DCTCP: the other way round)', () => {
    // After warm: the round ends at the ACK of 6; ACKs 4 and 5 unmarked (slow start: 7), 6 marked.
    const run = (scheme: Scheme) => {
      const c = make(scheme);
      warm(c);
      c.onAck(ack(4, 40, 61, { ce: false }));
      c.onAck(ack(5, 40, 62, { ce: false }));
      expect(c.windowSize()).toBe(7);
      c.onAck(ack(6, 40, 62, { ce: true }));
      return c.windowSize();
    };
    // Prague: α held at 1 until this first mark, so the cut is a half; updating α first would have taken
    // 1 in 3 marked into it: 7 × (1 − (15/16 + 1/48)/2) = 3.65
    expect(run(prague)).toBe(3.5);
    // DCTCP: α = (15/16)⁴ after warm takes this round (1 of 3 marked) in before the cut; the ACK covers all
    // that was sent, so its 1/w follows the cut
    const alpha = (15 / 16) * (15 / 16) ** 4 + 1 / 3 / 16;
    const cut = 7 * (1 - alpha / 2);
    expect(run(dctcp)).toBeCloseTo(cut + 1 / cut, 12);
  });
});
