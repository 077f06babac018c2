import { ESTIMATES, type EstimateName } from '../log/kinds.ts';
import { type Ack, type Controller, type EcnCapability, wholePackets } from './types.ts';
import { UserCodeError } from './userCode.ts';
import type { Guard } from './userScheme.ts';

/**
 * The Controller the senders drive, made of the object a user's `create` returned. Every call enters
 * the guard (counted, for the loop guard and the beats), checks what it returns with a number test and
 * turns a throw into the user's message, naming the callback. Each method calls its user method from a
 * call site of its own: the engine then sees one target there and can inline it, which a shared
 * `f.call(o, …)` helper would prevent.
 */

const REQUIRED = ['windowSize', 'onAck', 'onTimeout'] as const;
const OPTIONAL = ['pacingRate', 'burstSize', 'onSend', 'onLoss', 'timeoutMs', 'estimates'] as const;
type Made = Record<(typeof REQUIRED)[number] | (typeof OPTIONAL)[number], (...a: unknown[]) => unknown> & { ecn?: unknown };

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

export function wrapController(made: unknown, guard: Guard): Controller {
  if (!isObject(made)) throw new UserCodeError('create must return an object with windowSize(), onAck(ack) and onTimeout(now)', 'create');
  for (const k of REQUIRED) if (typeof made[k] !== 'function') throw new UserCodeError(`the controller create returns has no ${k}() method`, 'create');
  for (const k of OPTIONAL) if (made[k] !== undefined && typeof made[k] !== 'function') throw new UserCodeError(`${k}, if given, must be a method`, 'create');
  if (made.ecn !== undefined && made.ecn !== 'ect0' && made.ecn !== 'ect1') throw new UserCodeError(`ecn, if given, must be 'ect0' (classic ECN) or 'ect1' (L4S)`, 'create');
  return new UserController(made as Made, guard);
}

/**
 * The most packets a window or burst may hold: a sender keeps each one in flight, so 10¹² would fill the
 * memory long before any figure; a million is far past any link here (a second of 10 Gbit/s).
 */
export const MAX_PACKETS = 1_000_000;

/** A count the sender uses: a number ≥ 0 (Infinity only where `infinite` allows it; packets at most MAX_PACKETS), or an error. */
function count(name: string, v: unknown, infinite: boolean): number {
  if (typeof v === 'number' && v >= 0 && (infinite || v <= MAX_PACKETS)) return v;
  const range = infinite ? 'number ≥ 0' : `number from 0 to ${MAX_PACKETS.toLocaleString('en-US')} (packets)`;
  throw new UserCodeError(`returned ${typeof v === 'number' ? String(v) : typeof v}; it must be a ${range}`, name);
}

/**
 * Missing optional methods behave as BaseController's defaults. Each ACK reaches the user as a fresh
 * object: senders reuse theirs, and a user may keep the one they got.
 */
class UserController implements Controller {
  /** The names of the last estimates that passed the full check, in their order. */
  private passed: readonly string[] = [];
  readonly ecn?: EcnCapability;

  constructor(
    private readonly o: Made,
    private readonly g: Guard,
  ) {
    if (o.ecn !== undefined) this.ecn = o.ecn as unknown as EcnCapability;
  }

  windowSize(): number {
    this.g.enter('windowSize');
    let v: unknown;
    try {
      v = this.o.windowSize();
    } catch (e) {
      throw this.g.fail('windowSize', e);
    }
    return count('windowSize', v, false);
  }
  pacingRate(): number {
    if (!this.o.pacingRate) return Infinity;
    this.g.enter('pacingRate');
    let v: unknown;
    try {
      v = this.o.pacingRate();
    } catch (e) {
      throw this.g.fail('pacingRate', e);
    }
    return count('pacingRate', v, true);
  }
  burstSize(): number {
    if (!this.o.burstSize) return wholePackets(this.windowSize());
    this.g.enter('burstSize');
    let v: unknown;
    try {
      v = this.o.burstSize();
    } catch (e) {
      throw this.g.fail('burstSize', e);
    }
    return count('burstSize', v, false);
  }
  onSend(seq: number, now: number): void {
    if (!this.o.onSend) return;
    this.g.enter('onSend');
    try {
      this.o.onSend(seq, now);
    } catch (e) {
      throw this.g.fail('onSend', e);
    }
  }
  onAck(a: Ack): void {
    this.g.enter('onAck');
    try {
      this.o.onAck({ seq: a.seq, sentAt: a.sentAt, receivedAt: a.receivedAt, now: a.now, cumulative: a.cumulative, inFlight: a.inFlight, ce: a.ce });
    } catch (e) {
      throw this.g.fail('onAck', e);
    }
  }
  onLoss(now: number, seq: number): void {
    if (!this.o.onLoss) return;
    this.g.enter('onLoss');
    try {
      this.o.onLoss(now, seq);
    } catch (e) {
      throw this.g.fail('onLoss', e);
    }
  }
  onTimeout(now: number): void {
    this.g.enter('onTimeout');
    try {
      this.o.onTimeout(now);
    } catch (e) {
      throw this.g.fail('onTimeout', e);
    }
  }
  timeoutMs(): number {
    if (!this.o.timeoutMs) return 1000;
    this.g.enter('timeoutMs');
    let v: unknown;
    try {
      v = this.o.timeoutMs();
    } catch (e) {
      throw this.g.fail('timeoutMs', e);
    }
    if (count('timeoutMs', v, false) > 0) return v as number;
    throw new UserCodeError('returned 0; the timer needs a wait above 0 ms', 'timeoutMs');
  }
  estimates(): Partial<Record<EstimateName, number>> {
    if (!this.o.estimates) return NONE;
    this.g.enter('estimates');
    let e: unknown;
    try {
      e = this.o.estimates();
    } catch (err) {
      throw this.g.fail('estimates', err);
    }
    if (!isObject(e)) throw new UserCodeError('must return an object of numbers by name', 'estimates');
    // the usual case, numbers under the names that passed last time, passes with a comparison per name
    let i = 0;
    for (const k in e) {
      if (k !== this.passed[i] || typeof e[k] !== 'number') return this.checkEstimates(e);
      i++;
    }
    return i === this.passed.length ? (e as Partial<Record<EstimateName, number>>) : this.checkEstimates(e);
  }

  /** Known names with numbers pass as they are (and their names are kept); anything else is filtered. */
  private checkEstimates(e: Record<string, unknown>): Partial<Record<EstimateName, number>> {
    for (const k in e) if (KNOWN[k] !== true || typeof e[k] !== 'number') return known(e);
    this.passed = Object.keys(e);
    return e as Partial<Record<EstimateName, number>>;
  }
}

const NONE = Object.freeze({});
/** The estimate names, as an object (a property read). Inherited names (toString) read as functions, not `true`. */
const KNOWN: Readonly<Record<string, unknown>> = Object.fromEntries(ESTIMATES.map((name) => [name, true]));

function known(e: Record<string, unknown>): Partial<Record<EstimateName, number>> {
  const out: Partial<Record<EstimateName, number>> = {};
  for (const k in e) if (KNOWN[k] === true && typeof e[k] === 'number') out[k as EstimateName] = e[k];
  return out;
}
