/**
 * Kathleen Nichols' windowed maximum (or minimum), as Linux keeps it in lib/win_minmax.c for BBR's
 * bandwidth and TCP's minimum RTT: the best, second and third best samples, spread across the window, in
 * constant space. A sample stays until more than `window` time units (rounds, or ms) have passed since it,
 * so a window of 10 rounds holds the samples of the current round and the ten before it.
 */
export class WindowedFilter {
  private readonly t = [0, 0, 0];
  private readonly v: number[];

  /** `better(a, b)`: whether `a` replaces `b` (a ≥ b for a maximum, a ≤ b for a minimum). */
  constructor(
    private readonly window: number,
    private readonly better: (a: number, b: number) => boolean,
    initial: number,
  ) {
    this.v = [initial, initial, initial];
  }

  get value(): number {
    return this.v[0];
  }

  /** Takes the sample `value` at time `t` and returns the windowed best. */
  update(t: number, value: number): number {
    const { v } = this;
    if (this.better(value, v[0]) || t - this.t[2] > this.window) return this.reset(t, value);
    if (this.better(value, v[1])) this.set(2, t, value).set(1, t, value);
    else if (this.better(value, v[2])) this.set(2, t, value);
    return this.age(t, value);
  }

  private reset(t: number, value: number): number {
    for (let i = 0; i < 3; i++) this.set(i, t, value);
    return value;
  }

  private set(i: number, t: number, value: number): this {
    this.t[i] = t;
    this.v[i] = value;
    return this;
  }

  private shift(t: number, value: number): void {
    this.set(0, this.t[1], this.v[1]).set(1, this.t[2], this.v[2]).set(2, t, value);
  }

  /** As time passes, the second and third best take over from samples that left the window. */
  private age(t: number, value: number): number {
    const dt = t - this.t[0];
    if (dt > this.window) {
      this.shift(t, value);
      if (t - this.t[0] > this.window) this.shift(t, value);
    } else if (this.t[1] === this.t[0] && dt > Math.floor(this.window / 4)) {
      this.set(2, t, value).set(1, t, value);
    } else if (this.t[2] === this.t[1] && dt > Math.floor(this.window / 2)) {
      this.set(2, t, value);
    }
    return this.v[0];
  }
}

export const atLeast = (a: number, b: number): boolean => a >= b;
export const atMost = (a: number, b: number): boolean => a <= b;
