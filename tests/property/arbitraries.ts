import fc from 'fast-check';
import { isWhole, type Controller, type ParamSpec, type ParamValues, type Scheme } from '../../shared/controllers/types.ts';
import { ack } from '../helpers/capture.ts';

/**
 * Every property runs a bounded number of cases from a fixed seed: the suite stays quick and a failure
 * reproduces as it was seen. A failing case is printed shrunk.
 */
export const RUNS = { numRuns: 60, seed: 31 } as const;

/** Any value one parameter's schema allows: its whole range, ends included, whole numbers where it counts. */
export function paramArb(p: ParamSpec): fc.Arbitrary<number | string> {
  if (p.kind === 'choice') return fc.constantFrom(...p.choices);
  if (isWhole(p)) return fc.integer({ min: p.min, max: Math.min(p.max, 2 ** 31 - 1) });
  // The slider's own values (where a comparison meets a measured value exactly), its ends, and anything between.
  const grid = fc.integer({ min: 0, max: Math.floor((p.max - p.min) / p.step) }).map((k) => Number((p.min + k * p.step).toPrecision(12)));
  return fc.oneof(fc.constantFrom(p.min, p.max), grid, fc.double({ min: p.min, max: p.max, noNaN: true }));
}

/** Any set of values a scheme's schema allows. */
export const paramsArb = (s: Scheme): fc.Arbitrary<ParamValues> => fc.record(Object.fromEntries(s.params.map((p) => [p.name, paramArb(p)])));

/** What happens to a sender, one step at a time: a send, the ACK of the oldest packet out (after `rtt`), its loss, or the timer. */
export type Step = { kind: 'send' } | { kind: 'ack'; rtt: number; gap: number } | { kind: 'loss' } | { kind: 'timeout' };

/** Steps whose RTTs are any, or one of `near` (a scheme's own thresholds, so a comparison meets its edge) and its neighbours. */
export function stepsArb(near: readonly number[] = []): fc.Arbitrary<Step[]> {
  const edges = near.flatMap((x) => [x - 1, x, x + 1]).filter((x) => x >= 1);
  const rtt = edges.length ? fc.oneof({ weight: 1, arbitrary: fc.integer({ min: 1, max: 3000 }) }, { weight: 2, arbitrary: fc.constantFrom(...edges) }) : fc.integer({ min: 1, max: 3000 });
  return fc.array(
    fc.oneof(
      { weight: 3, arbitrary: fc.constant({ kind: 'send' } as const) },
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('ack' as const), rtt, gap: fc.integer({ min: 0, max: 200 }) }) },
      { weight: 1, arbitrary: fc.constant({ kind: 'loss' } as const) },
      { weight: 1, arbitrary: fc.constant({ kind: 'timeout' } as const) },
    ),
    { maxLength: 120 },
  );
}

/** A scheme's values and steps whose RTTs meet its millisecond parameters' values. */
export const runArb = (s: Scheme): fc.Arbitrary<[ParamValues, Step[]]> =>
  paramsArb(s).chain((p) => fc.tuple(fc.constant(p), stepsArb(s.params.filter((q) => q.kind === 'number' && q.unit === 'ms').map((q) => Number(p[q.name])))));

/** What a step did: nothing when there was no packet out to ACK or lose. */
export type Event = { kind: 'send'; seq: number } | { kind: 'ack'; seq: number; rtt: number; now: number; sentAt: number } | { kind: 'loss'; seq: number } | { kind: 'timeout'; now: number } | null;

/**
 * Drives a controller through the steps as a sender would: packets numbered in order, ACKs and losses for
 * the oldest one out, the clock moving by each ACK's gap and each timeout. `after` sees the controller after every step.
 */
export function drive(c: Controller, steps: readonly Step[], after: (c: Controller, event: Event) => void = () => {}): void {
  let now = 0;
  let next = 0;
  const out: number[] = [];
  for (const step of steps) {
    let event: Event = null;
    if (step.kind === 'send') {
      out.push(next);
      event = { kind: 'send', seq: next };
      c.onSend(next++, now);
    } else if (step.kind === 'ack' && out.length > 0) {
      const seq = out.shift()!;
      now += step.gap;
      // The echoed send time is read as now − rtt, so the RTT is exactly the one drawn (and meets a threshold on its grid).
      const sentAt = now - step.rtt;
      event = { kind: 'ack', seq, rtt: now - sentAt, now, sentAt };
      c.onAck(ack(seq, sentAt, now, { cumulative: seq + 1, inFlight: out.length }));
    } else if (step.kind === 'loss' && out.length > 0) {
      event = { kind: 'loss', seq: out.shift()! };
      c.onLoss(now, event.seq);
    } else if (step.kind === 'timeout') {
      now += c.timeoutMs();
      event = { kind: 'timeout', now };
      c.onTimeout(now);
    }
    after(c, event);
  }
}
