/**
 * Seeded pseudo-random streams. Every random choice in the model draws from one of these, so a run is
 * reproducible from its seed; each named stream is independent, so turning one impairment on does not
 * shift the draws of another.
 */

/** FNV-1a over the string, then a murmur finalizer: a well-mixed 32-bit value from a seed and a name. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** sfc32: small, fast, and passes PractRand far beyond what a simulation run draws. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(
    readonly seed: number,
    readonly name = '',
  ) {
    this.a = hash32(`${seed}/${name}/a`);
    this.b = hash32(`${seed}/${name}/b`);
    this.c = hash32(`${seed}/${name}/c`);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** An independent stream for one purpose, derived from this stream's seed and name. */
  stream(purpose: string): Rng {
    return new Rng(this.seed, this.name ? `${this.name}.${purpose}` : purpose);
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** True with probability p (p in [0, 1]). */
  chance(p: number): boolean {
    return p > 0 && this.next() < p;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
}

/**
 * A stream whose uniform draws come from elsewhere (a user scheme's `random()`, itself the flow's own
 * stream), with every draw made from them as Rng makes it: a copy of a built-in draws what the built-in does.
 */
export class DrawnRng extends Rng {
  constructor(private readonly draw: () => number) {
    super(0);
  }

  next(): number {
    return this.draw();
  }
}
