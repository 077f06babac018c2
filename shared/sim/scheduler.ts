/**
 * Discrete-event scheduler in virtual milliseconds. Events at the same instant run in the order they were
 * scheduled, which makes every run deterministic. Times (and tie-break counters) are kept in typed arrays
 * so that hundreds of thousands of events cost no per-event objects beyond the callback.
 */
export type Action = (now: number) => void;

/** What timers and endpoints need of time: the simulator in virtual time, or a wall clock when live. */
export interface Clock {
  readonly now: number;
  at(at: number, action: Action): void;
}

/**
 * Up to this many events pending are kept sorted, latest first: the next event is the last, taken without
 * a comparison, and a new one moves past the few due before it (a one-flow run has a handful pending:
 * each link's wake-up, each delay line's next exit, the sender's timers). Past it (a jittered line's
 * packets, many flows' timers) they go to a binary heap, until few are left again.
 */
const SORTED_MAX = 32;
const SORTED_AGAIN = 8;

export class Scheduler implements Clock {
  now = 0;
  private times = new Float64Array(64);
  /** In the heap, each entry's place in the order of scheduling (ties go to the earlier). */
  private order = new Float64Array(64);
  private actions: Action[] = [];
  private size = 0;
  private heap = false;
  private counter = 0;
  private stopped = false;

  /** Runs `action` at virtual time `at` (never earlier than now). */
  at(at: number, action: Action): void {
    const t = at < this.now ? this.now : at;
    if (this.size === this.times.length) this.grow();
    if (this.heap) return this.push(t, action);
    if (this.size === SORTED_MAX) return this.toHeap(t, action);
    const times = this.times;
    const actions = this.actions;
    let i = this.size++;
    // before every entry due at or before t, including those scheduled earlier at t, which run first
    while (i > 0 && times[i - 1] <= t) {
      times[i] = times[i - 1];
      actions[i] = actions[i - 1];
      i--;
    }
    times[i] = t;
    actions[i] = action;
  }

  after(delay: number, action: Action): void {
    this.at(this.now + delay, action);
  }

  /** Runs events in time order until none is left before `until` (inclusive), or `stop()` is called. */
  run(until = Infinity): void {
    this.stopped = false;
    while (this.size > 0 && !this.stopped) {
      const t = this.nextAt;
      if (t > until) break;
      const action = this.heap ? this.popMin() : this.popLast();
      this.now = t;
      action(t);
    }
    if (!this.stopped && until !== Infinity && this.now < until) this.now = until;
  }

  stop(): void {
    this.stopped = true;
  }

  get pending(): number {
    return this.size;
  }

  /** Time of the earliest pending event, or Infinity (a real-time driver sleeps until then). */
  get nextAt(): number {
    if (this.size === 0) return Infinity;
    return this.heap ? this.times[0] : this.times[this.size - 1];
  }

  private popLast(): Action {
    const last = --this.size;
    const action = this.actions[last];
    this.actions[last] = undefined as unknown as Action;
    return action;
  }

  /** The sorted entries become a heap (earliest first is one), counted in the order they run, and `action` joins them. */
  private toHeap(t: number, action: Action): void {
    const { times, actions } = this;
    for (let i = 0, j = this.size - 1; i < j; i++, j--) {
      [times[i], times[j]] = [times[j], times[i]];
      [actions[i], actions[j]] = [actions[j], actions[i]];
    }
    for (let i = 0; i < this.size; i++) this.order[i] = this.counter++;
    this.heap = true;
    this.push(t, action);
  }

  /** Few entries left: sorted again, latest first, in the order the heap gives them. */
  private toSorted(): void {
    const n = this.size;
    const times = new Float64Array(n);
    const actions: Action[] = [];
    for (let i = n - 1; i >= 0; i--) {
      times[i] = this.times[0];
      actions[i] = this.popMin();
    }
    this.times.set(times);
    for (let i = 0; i < n; i++) this.actions[i] = actions[i];
    this.size = n;
    this.heap = false;
  }

  private push(t: number, action: Action): void {
    let i = this.size++;
    const order = this.counter++;
    // sift up; every entry already in the heap was scheduled earlier, so it goes first at an equal time
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.times[p] <= t) break;
      this.put(i, this.times[p], this.order[p], this.actions[p]);
      i = p;
    }
    this.put(i, t, order, action);
  }

  private popMin(): Action {
    const top = this.actions[0];
    const last = --this.size;
    if (last > 0) {
      const t = this.times[last];
      const o = this.order[last];
      const a = this.actions[last];
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= last) break;
        const r = c + 1;
        if (r < last && (this.times[r] < this.times[c] || (this.times[r] === this.times[c] && this.order[r] < this.order[c]))) c = r;
        const ct = this.times[c];
        if (t < ct || (t === ct && o < this.order[c])) break;
        this.put(i, ct, this.order[c], this.actions[c]);
        i = c;
      }
      this.put(i, t, o, a);
    }
    this.actions[last] = undefined as unknown as Action;
    if (last === SORTED_AGAIN) this.toSorted();
    return top;
  }

  private put(i: number, t: number, order: number, action: Action): void {
    this.times[i] = t;
    this.order[i] = order;
    this.actions[i] = action;
  }

  private grow(): void {
    const times = new Float64Array(this.times.length * 2);
    times.set(this.times);
    this.times = times;
    const order = new Float64Array(this.order.length * 2);
    order.set(this.order);
    this.order = order;
  }
}

/**
 * A restartable one-shot timer. Pushing the deadline later (as a retransmission timer does on every ACK)
 * costs no heap entry: the pending entry notices the deadline moved and re-arms itself once.
 */
export class Timer {
  private deadline = Infinity;
  private entryAt: number | null = null;

  constructor(
    private readonly scheduler: Clock,
    private readonly fire: Action,
  ) {}

  /** Fires at `at` unless set again or cancelled before. */
  set(at: number): void {
    this.deadline = at < this.scheduler.now ? this.scheduler.now : at;
    if (this.entryAt === null || this.deadline < this.entryAt) this.arm(this.deadline);
  }

  cancel(): void {
    this.deadline = Infinity;
  }

  get armed(): boolean {
    return this.deadline !== Infinity;
  }

  get at(): number {
    return this.deadline;
  }

  private arm(at: number): void {
    this.entryAt = at;
    // The entry knows the time it was armed for: a wall clock runs it a little after that.
    this.scheduler.at(at, (now) => this.onEntry(at, now));
  }

  private onEntry(at: number, now: number): void {
    if (at !== this.entryAt) return; // superseded by an earlier entry
    this.entryAt = null;
    if (this.deadline <= at) {
      this.deadline = Infinity;
      this.fire(now);
    } else if (this.deadline !== Infinity) {
      this.arm(this.deadline);
    }
  }
}
