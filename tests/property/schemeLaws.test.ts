import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findScheme } from '../../shared/controllers/registry.ts';
import { withDefaults, type Controller, type ParamValues } from '../../shared/controllers/types.ts';
import { Rng } from '../../shared/sim/rng.ts';
import { ack } from '../helpers/capture.ts';
import { drive, paramArb, paramsArb, RUNS, runArb, type Step } from './arbitraries.ts';

/**
 * Each simple scheme against a model of its rule written out here, over its whole parameter range and
 * any run of events: the window after every event is the rule's, exactly (to rounding).
 */

interface Model {
  window(): number;
  send?(seq: number): void;
  ack?(rtt: number, now: number, seq: number, sentAt: number): void;
  loss?(seq: number): void;
  timeout?(): void;
  timeoutMs(): number;
}

const make = (id: string, params: ParamValues): Controller => {
  const s = findScheme(id)!;
  return s.create(withDefaults(s.params, params), new Rng(3));
};

/** Runs the scheme and the model side by side and compares their windows and timers after every event. */
function agrees(id: string, model: (p: ParamValues) => Model): void {
  const scheme = findScheme(id)!;
  fc.assert(
    fc.property(runArb(scheme), ([given, steps]) => {
      const p = withDefaults(scheme.params, given);
      const c = make(id, p);
      const m = model(p);
      drive(c, steps, (_, e) => {
        if (e?.kind === 'send') m.send?.(e.seq);
        else if (e?.kind === 'ack') m.ack?.(e.rtt, e.now, e.seq, e.sentAt);
        else if (e?.kind === 'loss') m.loss?.(e.seq);
        else if (e?.kind === 'timeout') m.timeout?.();
        expect(c.windowSize()).toBeCloseTo(m.window(), 9);
        expect(c.timeoutMs()).toBeCloseTo(m.timeoutMs(), 9);
      });
    }),
    { ...RUNS, numRuns: 300 },
  );
}

const atLeastOne = (w: number) => Math.max(1, w);
const aimd = findScheme('aimd')!;

/** The highest packet sent when the window was last cut: losses of packets sent before it belong to that cut. */
function episodes() {
  let highest = -1;
  let cutAfter = -1;
  return {
    sent: (seq: number) => (highest = Math.max(highest, seq)),
    fresh: (seq: number) => seq > cutAfter && ((cutAfter = highest), true),
    reset: () => (cutAfter = highest),
  };
}

describe('schemes against their rules, over every parameter', () => {
  it('fixed: the window is w, whatever happens', () => agrees('fixed', (p) => ({ window: () => Number(p.w), timeoutMs: () => 1000 })));

  it('AIMD: +a/w (or a/w²) per ACK; w·b, √w or w^¼ on the timer, and on an inferred loss once per window when detecting', () =>
    agrees('aimd', (p) => {
      let w = 1;
      const a = Number(p.a);
      const cut = () => {
        const x = p.decrease === 'multiplicative' ? w * Number(p.b) : p.decrease === 'sqrt' ? Math.sqrt(w) : w ** 0.25;
        w = atLeastOne(x);
      };
      const e = episodes();
      return {
        window: () => w,
        send: e.sent,
        ack: () => (w += p.increase === 'a/w2' ? a / (w * w) : a / w),
        loss: (seq) => p.loss === 'detect' && e.fresh(seq) && cut(),
        timeout: () => (cut(), e.reset()),
        timeoutMs: () => Number(p.timeout),
      };
    }));

  it('AIMD: the timer leaves w·b of any window, for every b and a (monotone in b)', () => {
    fc.assert(
      fc.property(paramArb(aimd.params.find((p) => p.name === 'b')!), paramArb(aimd.params.find((p) => p.name === 'a')!), fc.integer({ min: 1, max: 80 }), (b, a, acks) => {
        const c = make('aimd', { a, b });
        for (let i = 0; i < acks; i++) c.onAck(ack(i, 0, 10));
        const before = c.windowSize();
        c.onTimeout(2000);
        expect(c.windowSize()).toBeCloseTo(Math.max(1, before * Number(b)), 9);
      }),
      RUNS,
    );
  });

  it('watermarks: +1 below the low mark, −1 above the high one (never under one packet)', () =>
    agrees('watermarks', (p) => {
      let w = 1;
      return {
        window: () => w,
        ack: (rtt) => {
          if (rtt < Number(p.low)) w += 1;
          else if (rtt > Number(p.high)) w = atLeastOne(w - 1);
        },
        timeoutMs: () => 1000,
      };
    }));

  it('watermarks: an RTT exactly at a mark holds the window, for every pair of marks', () => {
    fc.assert(
      fc.property(paramsArb(findScheme('watermarks')!), fc.integer({ min: 1, max: 20 }), (p, grow) => {
        const [low, high] = [Number(p.low), Number(p.high)];
        const c = make('watermarks', p);
        for (let i = 0; i < grow; i++) c.onAck(ack(i, 0, Math.min(low, high) / 2));
        const w = c.windowSize();
        // At the low mark (not below it) nothing grows; at the high mark (not above it) nothing shrinks.
        if (low <= high) c.onAck(ack(grow, 0, low));
        c.onAck(ack(grow + 1, 0, high));
        expect(c.windowSize()).toBe(high < low ? w + 1 : w);
      }),
      RUNS,
    );
  });

  it('delay trigger: grows below the threshold (by the minimum RTT), shrinks at or above it, per ACK or once per window', () =>
    agrees('delay-trigger', (p) => {
      let w = 1;
      let rttMin = Infinity;
      let cutAt = -Infinity;
      return {
        window: () => w,
        ack: (rtt, now) => {
          const sentAt = now - rtt;
          rttMin = Math.min(rttMin, rtt);
          if (rtt < Number(p.threshold)) {
            w += p.increaseMode === 'per-window' ? Number(p.increase) / w : Number(p.increase);
            return;
          }
          if (p.cut === 'once-per-window' && sentAt < cutAt) return;
          w = atLeastOne(p.variant === 'multiplicative' ? w * Number(p.beta) : w - Number(p.decrease));
          cutAt = now;
        },
        timeoutMs: () => 1000,
      };
    }));

  it('delivery trend: w + 1/w² per ACK; −1 when delivery got factor× faster than the reference, +1 when factor× slower; w^¼ on the timer', () =>
    agrees('delivery-trend', (p) => {
      let w = 1;
      let reference = Number.NaN;
      let referenceAt = -Infinity;
      let recent: number[] = [];
      const [factor, k] = [Number(p.factor), Number(p.k)];
      const current = (delivery: number) => {
        if (p.compare !== 'k-average') return delivery;
        recent.push(delivery);
        if (recent.length < k) return Number.NaN;
        const mean = recent.reduce((s, d) => s + d, 0) / k;
        recent = [];
        return mean;
      };
      return {
        window: () => w,
        ack: (_rtt, now, _seq, sentAt) => {
          w += 1 / (w * w);
          // the receiver's clock is halfway, as the driver's ACKs say
          const c = current(sentAt + (now - sentAt) / 2 - sentAt);
          if (Number.isNaN(c) || (p.compare === 'interval' && now - referenceAt < Number(p.interval))) return;
          if (c < reference / factor) w = atLeastOne(w - 1);
          else if (c > reference * factor) w += 1;
          reference = c;
          referenceAt = now;
        },
        timeout: () => (w = atLeastOne(w ** 0.25)),
        timeoutMs: () => Number(p.timeout),
      };
    }));

  it('Reno: slow start to ssthresh, +1/w after; a loss halves once per episode (at least 2); the timer restarts from 1; RFC 6298 timer', () =>
    agrees('reno', (p) => {
      let w = 1;
      let ssthresh = Number(p.ssthresh);
      let recoveryUntil = -1;
      let highest = -1;
      const rto = rfc6298(Number(p.minRto));
      return {
        window: () => w,
        send: (seq) => (highest = Math.max(highest, seq)),
        ack: (rtt, _now, seq) => {
          rto.sample(rtt);
          if (recoveryUntil >= 0) {
            if (seq + 1 <= recoveryUntil) return;
            recoveryUntil = -1;
          }
          w += w < ssthresh ? 1 : 1 / w;
        },
        loss: () => {
          if (recoveryUntil >= 0) return;
          ssthresh = Math.max(2, w / 2);
          w = ssthresh;
          recoveryUntil = highest;
        },
        timeout: () => {
          ssthresh = Math.max(2, w / 2);
          w = 1;
          recoveryUntil = -1;
          rto.back();
        },
        timeoutMs: () => rto.value(),
      };
    }));

  it('burst AIMD: +2 per whole round (or +1/burst per reply), halved on a loss or the timer; waits k × the smoothed RTT, at least the floor', () =>
    agrees('burst-aimd', (p) => {
      let burst = Number(p.initial);
      let srtt = NaN;
      const alpha = Number(p.alpha);
      return {
        window: () => burst,
        ack: (rtt) => {
          srtt = Number.isNaN(srtt) ? rtt : (1 - alpha) * srtt + alpha * rtt;
          // The driver asks for no round (burstSize), so a round never completes: only the per-reply rule grows.
          if (p.increase === 'per-reply') burst += 1 / burst;
        },
        loss: () => (burst = Math.max(1, burst / 2)),
        timeout: () => (burst = Math.max(1, burst / 2)),
        timeoutMs: () => Math.max(Number(p.floor), Number(p.k) * (Number.isNaN(srtt) ? Number(p.initialRtt) : srtt)),
      };
    }));

  it('rate-based: the window is the ACKs of the last span ÷ span × the minimum RTT × k + c', () =>
    agrees('rate-based', (p) => {
      let w = 1;
      let rttMin = Infinity;
      const acks: number[] = [];
      const span = Number(p.span);
      return {
        window: () => w,
        ack: (rtt, now) => {
          rttMin = Math.min(rttMin, rtt);
          acks.push(now);
          const recent = acks.filter((t) => t > now - span).length;
          w = (recent / span) * rttMin * Number(p.k) + Number(p.c);
        },
        timeoutMs: () => 1000,
      };
    }));
});

/** RFC 6298's timer, written from the RFC: SRTT, RTTVAR, RTO = SRTT + max(G, 4·RTTVAR) within [minRto, 60 s], doubled per expiry. */
function rfc6298(minRto: number) {
  let srtt = NaN;
  let rttvar = NaN;
  let base = 1000;
  let backoff = 1;
  return {
    sample(r: number) {
      if (Number.isNaN(srtt)) [srtt, rttvar] = [r, r / 2];
      else [rttvar, srtt] = [0.75 * rttvar + 0.25 * Math.abs(srtt - r), 0.875 * srtt + 0.125 * r];
      base = srtt + Math.max(1, 4 * rttvar);
      backoff = 1;
    },
    back: () => (backoff *= 2),
    value: () => Math.min(60_000, Math.max(minRto, base) * backoff),
  };
}

describe('schemes that state their parameter directly', () => {
  it('constant burst: size requests every gap ms, whatever comes back', () => {
    fc.assert(
      fc.property(runArb(findScheme('constant-burst')!), ([p, steps]) => {
        const c = make('constant-burst', p);
        drive(c, steps, () => {
          expect([c.burstSize(), c.pacingRate(), c.timeoutMs()]).toEqual([p.size, (Number(p.size) * 1000) / Number(p.gap), p.gap]);
        });
      }),
      RUNS,
    );
  });

  it('token pacer: paces margin % under its rate, with a window of rate × timeout and two spare', () => {
    fc.assert(
      fc.property(paramsArb(findScheme('token-pacer')!), (p) => {
        const c = make('token-pacer', p);
        expect(c.pacingRate()).toBeCloseTo(Number(p.rate) * (1 - Number(p.margin) / 100), 9);
        expect(c.timeoutMs()).toBe(Math.max(Number(p.minTimeout), 4 * Number(p.minTimeout)));
        expect(c.windowSize()).toBe(Math.ceil((Number(p.rate) * c.timeoutMs()) / 1000) + 2);
      }),
      RUNS,
    );
  });

  it('BDP estimator: the initial window before any estimate, and never under minWindow after one', () => {
    fc.assert(
      fc.property(runArb(findScheme('bdp')!), ([p, steps]) => {
        const c = make('bdp', p);
        expect(c.windowSize()).toBe(p.initial);
        let acked = false;
        drive(c, steps, (_, e) => {
          acked ||= e?.kind === 'ack';
          if (acked && c.windowSize() !== p.initial) expect(c.windowSize()).toBeGreaterThanOrEqual(Number(p.minWindow));
        });
      }),
      RUNS,
    );
  });

  it('BBR: the initial window before any estimate', () => {
    fc.assert(
      fc.property(paramsArb(findScheme('bbr')!), (p) => {
        expect(make('bbr', p).windowSize()).toBe(p.initialCwnd);
      }),
      RUNS,
    );
  });

  it('CUBIC: an inferred loss keeps β of the window (at least two packets), for every β', () => {
    fc.assert(
      fc.property(paramsArb(findScheme('cubic')!), fc.integer({ min: 0, max: 60 }), (p, acks) => {
        const c = make('cubic', p);
        const steps: Step[] = [];
        for (let i = 0; i < acks + 1; i++) steps.push({ kind: 'send' }, { kind: 'ack', rtt: 50, gap: 1 });
        steps.push({ kind: 'send' });
        drive(c, steps);
        const before = c.windowSize();
        c.onLoss(10_000, acks + 1);
        expect(c.windowSize()).toBeCloseTo(Math.max(2, before * Number(p.beta)), 9);
      }),
      RUNS,
    );
  });
});
