import { BEAT_MS } from '../../shared/controllers/userWatch.ts';

/**
 * How long user code may go without a beat before its worker counts as hung: well past the callbacks'
 * own budget (the loop guard stops guarded loops first) and many beats long, so a busy machine's pauses
 * do not end a healthy run.
 */
export const HANG_MS = 20 * BEAT_MS;

/** The request whose user code a worker runs now, as its last beat told. */
export interface Watched {
  id: number;
  callback: string | null;
  /** Callbacks entered by the last beat (the probe's starting count). */
  entered: number;
  probing: boolean;
}

export interface Pace {
  ms: number;
  callbacks: number;
}

/** Waits on one worker's beats: HANG_MS without one while user code runs calls `onHang`. */
export class Watchdog {
  watched: Watched | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private probing = -1;
  /** The first beat of the request watched now: when it came, and the callbacks entered by then. */
  private first: { id: number; at: number; entered: number } | null = null;
  /** When its last beat came. */
  private lastAt = 0;

  constructor(
    private readonly onHang: () => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A beat of request `id`; a null callback: its user code is done. */
  beat(id: number, callback: string | null, entered: number): void {
    clearTimeout(this.timer);
    if (callback === null) {
      this.watched = this.first = null;
      return;
    }
    this.lastAt = this.now();
    if (this.first?.id !== id) this.first = { id, at: this.lastAt, entered };
    this.watched = { id, callback, entered, probing: id === this.probing };
    this.timer = setTimeout(() => this.onHang(), HANG_MS);
  }

  /**
   * How the user code watched now goes, from its first beat to its last: the ms between them and the
   * callbacks entered between them. A beat comes at most every BEAT_MS, as a callback is entered or from a
   * long loop in one (each callback while probing), so it tells neither which callback the time went to
   * nor what came after it.
   */
  pace(): Pace | null {
    if (!this.watched || this.first?.id !== this.watched.id) return null;
    return { ms: this.lastAt - this.first.at, callbacks: this.watched.entered - this.first.entered };
  }

  /** The request `id` runs again to find its hang: its beats name each callback. */
  probe(id: number): void {
    this.probing = id;
    // the run starts again in a fresh worker: its pace is timed from its own first beat
    this.watched = this.first = null;
    clearTimeout(this.timer);
  }

  /** Request `id` was answered (a sweep's ids start again at 1: one probed before is not probed now). */
  done(id: number): void {
    if (id === this.probing) this.probing = -1;
    if (this.watched?.id !== id) return;
    this.stop();
  }

  /** The worker is gone (its requests too): no hang is waited for, nor a probe. */
  stop(): void {
    clearTimeout(this.timer);
    this.watched = this.first = null;
    this.probing = -1;
  }
}

/** The answer to a request that hung again while probing: which callback did not return. */
export const hangMessage = (callback: string | null) =>
  `your controller${callback ? ` in ${callback}` : ''}: did not return for ${HANG_MS} ms (a hang the loop guard cannot stop, such as a regular expression that backtracks for ever): its worker was stopped and replaced`;

/**
 * What follows the hang `dog` saw (its worker already replaced): the first time, the same request runs
 * again probing from its last beat's count, to name the callback; hung while probing, it is answered
 * with that name.
 */
export function afterHang(dog: Watchdog): { id: number; probeFrom: number } | { id: number; message: string } {
  const stuck = dog.watched!;
  if (stuck.probing) return { id: stuck.id, message: hangMessage(stuck.callback) };
  dog.probe(stuck.id);
  return { id: stuck.id, probeFrom: stuck.entered };
}
