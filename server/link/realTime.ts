import { Scheduler } from '../../shared/sim/scheduler.ts';
import { DelayHistogram } from './histogram.ts';

/**
 * Timers fire up to about a millisecond late and only in whole milliseconds, so the driver sleeps on a
 * timer until this long before the next event and then polls through setImmediate, which lets socket
 * events in between polls.
 */
const SPIN_MS = 2;
/**
 * Between polls the driver naps on a futex (sub-millisecond, and it gives the core away, which a busy
 * loop on a shared machine is punished for), never longer than MAX_NAP_MS so that arriving datagrams
 * are read, and timestamped, at most that late.
 */
const NAP_MS = 0.05;
const MAX_NAP_MS = 0.25;
const NAP = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs the model's discrete-event scheduler against the wall clock: model time is milliseconds since the
 * driver was made, every event runs as soon as the wall clock reaches its time, and packets from the
 * outside enter at the current wall time. Events keep their scheduled times, so a late wake-up delays a
 * packet but never shifts the ones after it: the link's rate holds on average.
 */
export class RealTimeDriver {
  readonly scheduler = new Scheduler();
  /** How late events ran: wall time minus their scheduled time, ms. */
  readonly lateness = new DelayHistogram();
  private readonly origin = performance.now();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerFor = Infinity;
  private polling = false;
  private stopped = false;

  get now(): number {
    return performance.now() - this.origin;
  }

  /** Brings the model up to now, hands `action` the current time (a packet arriving), then re-arms. */
  inject(action: (now: number) => void): void {
    if (this.stopped) return;
    const now = this.now;
    this.scheduler.run(now);
    action(now);
    this.arm();
  }

  /** Records how late an event's effect reached the outside world (called by the sinks). */
  noteLateness(scheduledAt: number): void {
    this.lateness.add(this.now - scheduledAt);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(): void {
    if (this.stopped || this.polling) return;
    const next = this.scheduler.nextAt;
    if (next === Infinity) return;
    const wait = next - this.now;
    if (wait <= SPIN_MS) {
      this.polling = true;
      setImmediate(this.poll);
      return;
    }
    if (this.timer && this.timerFor <= next) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerFor = next;
    this.timer = setTimeout(this.wake, wait - SPIN_MS);
  }

  private readonly wake = (): void => {
    this.timer = null;
    this.timerFor = Infinity;
    this.arm();
  };

  private readonly poll = (): void => {
    this.polling = false;
    if (this.stopped) return;
    const early = this.scheduler.nextAt - this.now;
    if (early > NAP_MS) Atomics.wait(NAP, 0, 0, Math.min(early - NAP_MS, MAX_NAP_MS));
    if (this.scheduler.nextAt <= this.now) this.scheduler.run(this.now);
    this.arm();
  };
}
