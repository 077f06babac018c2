import type { Rng } from '../sim/rng.ts';

/** The largest u32: netem scales every probability and correlation to it. */
export const U32_MAX = 0xffffffff;

/** A fraction (0.25 = 25%) as tc hands it to the kernel: rint(fraction × (2³² − 1)). */
export function netemPercent(fraction: number): number {
  return Math.min(U32_MAX, Math.max(0, Math.round(fraction * U32_MAX)));
}

/**
 * netem's correlated random numbers (get_crandom): with a correlation ρ (as a u32, netemPercent of it) the
 * next value is (v·(2³² − (ρ+1)) + last·(ρ+1)) >> 32 for a fresh uniform v, so it leans on the last one;
 * with ρ = 0 it is v. The 64-bit products are computed exactly (BigInt). The uniform source is the run's
 * seeded generator, not the kernel's prandom state, and `last` starts from it (the kernel seeds it at
 * random too).
 */
export class CorrelatedRandom {
  private last: number;
  private readonly rho: bigint;
  private readonly correlated: boolean;

  constructor(
    private readonly rng: Rng,
    correlation: number,
  ) {
    const rho = netemPercent(correlation);
    this.rho = BigInt(rho) + 1n;
    this.last = rho === 0 ? 0 : rng.nextUint32();
    this.correlated = rho !== 0;
  }

  /** The next u32. */
  next(): number {
    const value = this.rng.nextUint32();
    if (!this.correlated) return value;
    const answer = (BigInt(value) * ((1n << 32n) - this.rho) + BigInt(this.last) * this.rho) >> 32n;
    this.last = Number(answer);
    return this.last;
  }
}

/**
 * netem's tabledist without a distribution table (tc's default, `distribution uniform` alike): μ when
 * σ = 0, else ((rnd mod 2σ) + μ) − σ — uniform over [μ − σ, μ + σ) in whole nanoseconds, and below zero
 * when σ > μ. The tables tc loads for `distribution normal|pareto|paretonormal` are not modelled.
 */
export function uniformDelayNs(muNs: number, sigmaNs: number, random: Pick<CorrelatedRandom, 'next'>): number {
  if (sigmaNs === 0) return muNs;
  return (random.next() % (2 * sigmaNs)) + muNs - sigmaNs;
}

/** netem's packet_time_ns without cell or overhead settings: len × 10⁹ ÷ rate (bytes per second), truncated. */
export function packetTimeNs(bytes: number, bytesPerSecond: number): number {
  return Math.floor((bytes * 1e9) / bytesPerSecond);
}

/** A rate in Mbit/s as tc stores it: whole bits per second, divided by 8 and truncated to bytes per second. */
export function netemRate(mbps: number): number {
  return Math.floor(Math.round(mbps * 1e6) / 8);
}
