/**
 * Small deterministic PRNG (SplitMix32 variant). Used for Zobrist tables, opening generation and
 * noise profiles: the same seed always yields the same sequence on every platform.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform 32-bit unsigned integer. */
  nextU32(): number {
    this.state = (this.state + 0x9e3779b9) >>> 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  }

  /** Uniform signed 32-bit integer (handy for Int32Array Zobrist keys). */
  nextI32(): number {
    return this.nextU32() | 0;
  }

  /** Uniform integer in [0, bound). */
  below(bound: number): number {
    return Math.floor((this.nextU32() / 4294967296) * bound);
  }

  /** Uniform float in [0, 1). */
  nextFloat(): number {
    return this.nextU32() / 4294967296;
  }
}

/** Fills an Int32Array with Zobrist keys from a fixed seed. */
export function zobristKeys(count: number, seed: number): Int32Array {
  const rng = new Random(seed);
  const keys = new Int32Array(count);
  for (let i = 0; i < count; i++) keys[i] = rng.nextI32();
  return keys;
}
