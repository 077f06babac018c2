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
}

export interface Controller {
  /** Packets the sender may have outstanding. */
  windowSize(): number;
  /** Packets per second the sender paces at; Infinity sends as fast as the window allows. */
  pacingRate(): number;
  /** Burst-mode senders (the offset server): requests to send in the next round. */
  burstSize(): number;
  onSend(seq: number, now: number): void;
  onAck(ack: Ack): void;
  /** A loss inferred without a timeout: three duplicate ACKs, or a missing reply in a burst round. */
  onLoss(now: number): void;
  onTimeout(now: number): void;
  /** How long without an ACK before the sender's timer fires. */
  timeoutMs(): number;
  /** Internal estimates worth drawing (ssthresh, rttMin, bandwidth, pacingRate …), by name. */
  estimates(): Partial<Record<import('../log/kinds.ts').EstimateName, number>>;
}

export interface NumberParam {
  name: string;
  kind: 'number';
  unit: string;
  min: number;
  max: number;
  step: number;
  default: number;
  /** One-line meaning. */
  doc: string;
}

export interface ChoiceParam {
  name: string;
  kind: 'choice';
  choices: readonly string[];
  default: string;
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
  create(params: ParamValues): Controller;
}

export const num = (name: string, unit: string, min: number, max: number, step: number, def: number, doc: string): NumberParam => ({
  name,
  kind: 'number',
  unit,
  min,
  max,
  step,
  default: def,
  doc,
});

export const choice = (name: string, choices: readonly string[], def: string, doc: string): ChoiceParam => ({
  name,
  kind: 'choice',
  choices,
  default: def,
  doc,
});

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
    return spec.choices.includes(v) ? { value: v } : { error: `${spec.name} must be one of ${spec.choices.join(', ')} (got "${v}")` };
  }
  const v = typeof raw === 'number' ? raw : raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isFinite(v) || v < spec.min || v > spec.max) {
    return { error: `${spec.name} must be a number from ${spec.min} to ${spec.max}${spec.unit ? ` ${spec.unit}` : ''} (got "${raw}")` };
  }
  return { value: v };
}

/**
 * Checks raw values (from flags, the URL or a form) against a schema list; `owner` names what the
 * parameters belong to in the message for an unknown name.
 */
export function checkValues(specs: readonly ParamSpec[], given: Record<string, string | number>, owner: string): { values: ParamValues } | { error: string } {
  const values: ParamValues = {};
  for (const [name, raw] of Object.entries(given)) {
    const spec = specs.find((p) => p.name === name);
    if (!spec) return { error: `${owner} has no parameter "${name}" (its parameters: ${specs.map((p) => p.name).join(', ') || 'none'})` };
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
 * Defaults for the parts of the interface a scheme does not care about; schemes extend it and override
 * what they use.
 */
export abstract class BaseController implements Controller {
  abstract windowSize(): number;
  pacingRate(): number {
    return Infinity;
  }
  burstSize(): number {
    return Math.max(1, Math.floor(this.windowSize()));
  }
  onSend(_seq: number, _now: number): void {}
  onAck(_ack: Ack): void {}
  onLoss(now: number): void {
    this.onTimeout(now);
  }
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

/** Tracks the minimum RTT seen, as many schemes need it. */
export class MinRtt {
  value = Infinity;
  observe(ack: Ack): number {
    const rtt = ack.now - ack.sentAt;
    if (rtt < this.value) this.value = rtt;
    return rtt;
  }
}
