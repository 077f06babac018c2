import { Rng } from '../sim/rng.ts';
import { decimal } from '../text/decimal.ts';
import { quote } from '../text/quote.ts';

/**
 * The one narrow interface every congestion-control scheme implements, in the style of the classic
 * contest skeleton, and the parameter schema each scheme declares (the UI builds its sliders and the
 * CLI its flags from it).
 */

/**
 * What the sender learns from one acknowledgement: only what a real sender could see. Senders reuse one
 * record for every ACK, so a controller reads it during onAck and keeps none of it by reference.
 */
export interface Ack {
  /** Sequence number (or offset index) this ACK is for. */
  seq: number;
  /** When the sender sent that packet (echoed). */
  sentAt: number;
  /** The receiver's clock when it got the packet. */
  receivedAt: number;
  /** When the ACK reached the sender. */
  now: number;
  /** Reliable transfer: the cumulative ACK (next sequence number the receiver expects). */
  cumulative: number;
  /** Packets the sender believes are in flight after this ACK. */
  inFlight: number;
  /**
   * Whether the packet arrived marked CE (Congestion Experienced) and the receiver echoes it: a queue
   * with ECN on (--ecn on) marks an ECN-capable packet where it would drop it. Per packet, as DCTCP's
   * receiver (and AccECN) feed it back. False unless the controller declares `ecn`; senders always
   * set it, so absent reads as false.
   */
  ce?: boolean;
}

/** The ECN codepoint a controller's packets carry on a link with ECN on: ECT(0), classic (RFC 3168), or ECT(1), L4S (RFC 9331). */
export type EcnCapability = 'ect0' | 'ect1';

export interface Controller {
  /** Whether its packets are ECN-capable, and which codepoint they carry, when the link has ECN on; absent: Not-ECT. */
  readonly ecn?: EcnCapability;
  /** Packets the sender may have outstanding. */
  windowSize(): number;
  /** Packets per second the sender paces at; Infinity sends as fast as the window allows. */
  pacingRate(): number;
  /** Burst-mode senders (the offset server): requests to send in the next round. */
  burstSize(): number;
  onSend(seq: number, now: number): void;
  onAck(ack: Ack): void;
  /**
   * A loss the sender inferred without its timer: three later packets ACKed (contest), three duplicate
   * cumulative ACKs (reliable transfer), or a missing reply in a burst round. `seq` is the lost packet.
   * Only schemes that say so in their parameters react.
   */
  onLoss(now: number, seq: number): void;
  onTimeout(now: number): void;
  /** How long without an ACK before the sender's timer fires. */
  timeoutMs(): number;
  /** Internal estimates worth drawing (ssthresh, rttMin, bandwidth, pacingRate …), by name. */
  estimates(): Partial<Record<import('../log/kinds.ts').EstimateName, number>>;
}

export interface NumberParam<N extends string = string> {
  name: N;
  kind: 'number';
  unit: string;
  min: number;
  max: number;
  step: number;
  default: number;
  /** One-line meaning. */
  doc: string;
  /**
   * What a value of 0 stands for where 0 is not a quantity but a setting (the BDP estimator's timeout 0 is
   * one it works out itself): the word to show for it, in place of "0" and the unit.
   */
  zero?: string;
}

export interface ChoiceParam<N extends string = string, C extends string = string> {
  name: N;
  kind: 'choice';
  choices: readonly C[];
  default: C;
  doc: string;
}

export type ParamSpec = NumberParam | ChoiceParam;
export type ParamValues = Record<string, number | string>;

/** Which kind of sender a scheme drives. */
export type SchemeMode = 'window' | 'burst';

export interface Scheme {
  id: string;
  title: string;
  /** One line for pickers and --help. */
  doc: string;
  mode: SchemeMode;
  params: readonly ParamSpec[];
  /**
   * What the scheme's timer does when it fires, where that is its own design rather than a loss (the BDP
   * estimator re-estimates): the charts tick it under this name instead of "timeout".
   */
  timer?: string;
  /** `rng` is the flow's own seeded stream, for schemes that draw (BBR's first probing phase). */
  create(params: ParamValues, rng?: Rng): Controller;
}

export const num = <const N extends string>(name: N, unit: string, min: number, max: number, step: number, def: number, doc: string): NumberParam<N> => ({
  name,
  kind: 'number',
  unit,
  min,
  max,
  step,
  default: def,
  doc,
});

export const choice = <const N extends string, const C extends string>(name: N, choices: readonly C[], def: NoInfer<C>, doc: string): ChoiceParam<N, C> => ({
  name,
  kind: 'choice',
  choices,
  default: def,
  doc,
});

/** The typed values a schema list describes: numbers for number parameters, the literal choices for choices. */
export type ParamsOf<P extends readonly ParamSpec[]> = {
  [S in P[number] as S['name']]: S extends ChoiceParam<string, infer C> ? C : number;
};

/**
 * Declares a scheme whose `create` receives typed values, so a renamed or mistyped parameter fails to
 * compile. Values reach `create` only after `checkParams` filled and checked them against `params`.
 */
export function defineScheme<const P extends readonly ParamSpec[]>(s: Omit<Scheme, 'params' | 'create'> & { params: P; create(p: ParamsOf<P>, rng: Rng): Controller }): Scheme {
  return { ...s, create: (values, rng = new Rng(1)) => s.create(values as unknown as ParamsOf<P>, rng) };
}

/**
 * How a scheme learns of a loss. The contest skeleton only has its timer; a real sender also infers a
 * loss from three later packets ACKed (the contest receiver ACKs each packet) or three duplicate
 * cumulative ACKs (reliable transfer). Schemes that react to loss show this choice.
 */
export const lossParam = choice(
  'loss',
  ['timer-only', 'detect'],
  'timer-only',
  'timer-only: only the timer (no ACK for the timeout) is a loss; detect: also three later packets ACKed or three duplicate ACKs',
);

/** Defaults for every parameter, overridden by `given`. */
export function withDefaults(params: readonly ParamSpec[], given: ParamValues = {}): ParamValues {
  const out: ParamValues = {};
  for (const p of params) out[p.name] = given[p.name] ?? p.default;
  return out;
}

/**
 * Checks one value against its schema and returns it typed, or a message that names the parameter and
 * the allowed range.
 */
export function checkParam(spec: ParamSpec, raw: string | number): { value: number | string } | { error: string } {
  if (spec.kind === 'choice') {
    const v = String(raw);
    return spec.choices.includes(v) ? { value: v } : { error: `${spec.name} must be one of ${spec.choices.map((c) => c || '(none)').join(', ')} (got ${quote(v)})` };
  }
  const v = typeof raw === 'number' ? raw : decimal(raw);
  const whole = isWhole(spec);
  if (!Number.isFinite(v) || v < spec.min || v > spec.max || (whole && !Number.isInteger(v))) {
    return { error: `${spec.name} must be a ${whole ? 'whole number' : 'number'} from ${spec.min} to ${spec.max}${spec.unit ? ` ${spec.unit}` : ''} (got ${quote(String(raw))})` };
  }
  return { value: v };
}

/** A parameter stepped by 1 from a whole minimum counts things (packets, samples, ms): it takes no fractions, as its slider makes none. */
export const isWhole = (spec: NumberParam) => spec.step === 1 && Number.isInteger(spec.min);

/**
 * Checks raw values (from flags, the URL or a form) against a schema list; `owner` names what the
 * parameters belong to in the message for an unknown name.
 */
export function checkValues(specs: readonly ParamSpec[], given: Record<string, string | number>, owner: string): { values: ParamValues } | { error: string } {
  const values: ParamValues = {};
  for (const [name, raw] of Object.entries(given)) {
    const spec = specs.find((p) => p.name === name);
    if (!spec) return { error: `${owner} has no parameter ${quote(name)} (its parameters: ${specs.map((p) => p.name).join(', ') || 'none'})` };
    const r = checkParam(spec, raw);
    if ('error' in r) return r;
    values[name] = r.value;
  }
  return { values };
}

/** Validates a whole set of values for a scheme, filling in the defaults. */
export function checkParams(scheme: Scheme, given: Record<string, string | number>): { values: ParamValues } | { error: string } {
  const r = checkValues(scheme.params, given, scheme.id);
  return 'error' in r ? r : { values: { ...withDefaults(scheme.params), ...r.values } };
}

/**
 * The skeleton's whole number of packets for a controller's window or burst: truncated, at least one (so
 * a fractional increase counts once the next integer is reached, and a window of 0 or NaN still sends).
 */
export function wholePackets(n: number): number {
  return n >= 1 ? Math.floor(n) : 1;
}

/**
 * Defaults for the parts of the interface a scheme does not care about; schemes extend it and override
 * what they use.
 */
export abstract class BaseController implements Controller {
  abstract windowSize(): number;
  pacingRate(): number {
    return Infinity;
  }
  burstSize(): number {
    return wholePackets(this.windowSize());
  }
  onSend(_seq: number, _now: number): void {}
  onAck(_ack: Ack): void {}
  onLoss(_now: number, _seq: number): void {}
  onTimeout(_now: number): void {}
  timeoutMs(): number {
    return 1000;
  }
  estimates(): Partial<Record<import('../log/kinds.ts').EstimateName, number>> {
    return NO_ESTIMATES;
  }
}

const NO_ESTIMATES = Object.freeze({});

/** Windows never fall below one packet, or the sender would stall. */
export const atLeastOne = (w: number): number => (w < 1 ? 1 : w);

/**
 * Remembers the highest packet sent when the window was last cut, so a scheme reacts once per window:
 * losses of packets sent before the cut belong to the same episode.
 */
export class OncePerWindow {
  private highestSent = -1;
  private cutAfter = -1;
  sent(seq: number): void {
    if (seq > this.highestSent) this.highestSent = seq;
  }
  /** Whether a loss of `seq` starts a new episode; if so, the episode now covers everything sent. */
  fresh(seq: number): boolean {
    if (seq <= this.cutAfter) return false;
    this.cutAfter = this.highestSent;
    return true;
  }
  /** A timeout ends every episode. */
  reset(): void {
    this.cutAfter = this.highestSent;
  }
}

/**
 * Round trips counted in packets, as Linux counts them: a round ends when the ACK of the first packet
 * sent after it began arrives.
 */
export class Rounds {
  private highestSent = -1;
  private end = -1;
  sent(seq: number): void {
    if (seq > this.highestSent) this.highestSent = seq;
  }
  /** Whether the ACK of `seq` ends the current round (the next one then begins). */
  ended(seq: number): boolean {
    if (seq < this.end) return false;
    this.end = this.highestSent + 1;
    return true;
  }
}

/** Tracks the minimum RTT seen, as many schemes need it. */
export class MinRtt {
  value = Infinity;
  observe(ack: Ack): number {
    const rtt = ack.now - ack.sentAt;
    if (rtt < this.value) this.value = rtt;
    return rtt;
  }
}
