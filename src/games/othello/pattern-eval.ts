/**
 * The pattern evaluation: pattern tables (patterns.ts) plus a few global features, with one set of
 * weights per game stage (a band of empty-square counts), fitted by least squares on self-play
 * positions (tools/othello-fit.ts). The value estimates the final disc differential for the side to
 * move, in EVAL_UNITS_PER_DISC.
 */
import { mobility, mobilityHi, neighbours, neighboursHi, popcount } from './board.js';
import {
  INSTANCE_COUNT,
  INSTANCE_PATTERN,
  INDEX_BITS,
  INDEX_MASK,
  PATTERN_BLOCK,
  PATTERN_OFFSETS,
  patternIndices,
} from './patterns.js';
import type { Evaluator } from './evaluator.js';

/** Global features: own / opponent mobility, own / opponent potential mobility, corner moves, parity, bias. */
export const LINEAR_COUNT = 7;
/** Weights per stage: the pattern tables, then the global features. */
export const PHASE_BLOCK = PATTERN_BLOCK + LINEAR_COUNT;

const CORNER_LO = 0x00000081;
const CORNER_HI = 0x81000000 | 0;

/** Global features of a position for the side to move into `out` (LINEAR_COUNT slots). */
export function globalFeatures(pl: number, ph: number, ol: number, oh: number, out: Float64Array | Float32Array): void {
  const el = ~(pl | ol);
  const eh = ~(ph | oh);
  const ml = mobility(pl, ph, ol, oh);
  const mh = mobilityHi;
  const rl = mobility(ol, oh, pl, ph);
  const rh = mobilityHi;
  const nOl = neighbours(ol, oh);
  const nOh = neighboursHi;
  const nPl = neighbours(pl, ph);
  const nPh = neighboursHi;
  out[0] = popcount(ml) + popcount(mh);
  out[1] = popcount(rl) + popcount(rh);
  out[2] = popcount(el & nOl) + popcount(eh & nOh);
  out[3] = popcount(el & nPl) + popcount(eh & nPh);
  out[4] = popcount(ml & CORNER_LO) + popcount(mh & CORNER_HI) - popcount(rl & CORNER_LO) - popcount(rh & CORNER_HI);
  out[5] = (popcount(el) + popcount(eh)) & 1;
  out[6] = 1;
}

/** Weight slot (within a phase block) of each instance's table, for the evaluator's inner loop. */
/** The evaluator's form of a weights file: int16 pattern tables and float global weights, per stage. */
export interface PatternTables {
  /** tables[stage * PATTERN_BLOCK + slot], evaluation units, every configuration (tied pairs expanded). */
  readonly tables: Int16Array;
  /** linear[stage * LINEAR_COUNT + k], the global features' weights. */
  readonly linear: Float64Array;
  /** Stage of each number of empty squares (0..64). */
  readonly stageOf: Int32Array;
}

export const INSTANCE_OFFSET = new Int32Array(INSTANCE_PATTERN.map((p) => PATTERN_OFFSETS[p]));

export class PatternEvaluator implements Evaluator {
  /** Stage of each number of empty squares (0..64). */
  readonly stageOf: Int32Array;
  /**
   * The pattern weights (given as weights[stage * PHASE_BLOCK + slot]) as int16, PATTERN_BLOCK per stage: the file stores them as int16, and
   * half the bytes of float32 keeps more of a stage's tables in the CPU cache (the lookups are random).
   */
  readonly tables: Int16Array;
  /** The global features' weights, LINEAR_COUNT per stage. */
  readonly linear: Float64Array;
  private readonly indices = new Int32Array(INSTANCE_COUNT);
  private readonly features = new Float64Array(LINEAR_COUNT);

  constructor({ tables, linear, stageOf }: PatternTables) {
    const stages = stageOf[64] + 1;
    if (stageOf.length !== 65 || tables.length !== stages * PATTERN_BLOCK || linear.length !== stages * LINEAR_COUNT) {
      throw new Error('pattern weights: wrong size');
    }
    this.stageOf = stageOf;
    this.tables = tables;
    this.linear = linear;
  }

  /** From float weights[stage * PHASE_BLOCK + slot] (the fitting tool's form), rounded to the int16 tables. */
  static fromWeights(weights: Float32Array, stageOf: Int32Array): PatternEvaluator {
    let stages = 0;
    for (const s of stageOf) stages = Math.max(stages, s + 1);
    if (stageOf.length !== 65 || weights.length !== stages * PHASE_BLOCK) throw new Error('pattern weights: wrong size');
    const tables = new Int16Array(stages * PATTERN_BLOCK);
    const linear = new Float64Array(stages * LINEAR_COUNT);
    for (let stage = 0; stage < stages; stage++) {
      for (let i = 0; i < PATTERN_BLOCK; i++) {
        const w = Math.round(weights[stage * PHASE_BLOCK + i]);
        if (w < -32768 || w > 32767) throw new Error('pattern weights: a table weight is outside int16');
        tables[stage * PATTERN_BLOCK + i] = w;
      }
      for (let k = 0; k < LINEAR_COUNT; k++) linear[stage * LINEAR_COUNT + k] = weights[stage * PHASE_BLOCK + PATTERN_BLOCK + k];
    }
    return new PatternEvaluator({ tables, linear, stageOf });
  }

  evaluate(pl: number, ph: number, ol: number, oh: number): number {
    const empties = 64 - popcount(pl) - popcount(ph) - popcount(ol) - popcount(oh);
    const stage = this.stageOf[empties];
    const base = stage * PATTERN_BLOCK;
    const w = this.tables;
    const idx = this.indices;
    patternIndices(pl, ph, ol, oh, idx);
    let value = 0;
    for (let i = 0; i < INSTANCE_COUNT; i++) value += w[base + INSTANCE_OFFSET[i] + idx[i]];
    const f = this.features;
    globalFeatures(pl, ph, ol, oh, f);
    const linear = stage * LINEAR_COUNT;
    for (let k = 0; k < LINEAR_COUNT; k++) value += this.linear[linear + k] * f[k];
    return Math.round(value);
  }

  /**
   * The same value from pattern indices kept up to date by the position (patterns.ts packedIndices: per
   * instance Black's view and the occupancy, at `at`; White to move reads 3 * occupancy - black) and the
   * side to move's legal moves (ml, mh), which the position has already generated: the leaf then reads the
   * tables and computes one mobility. The sums run in the order of evaluate(), so the two agree to the last bit.
   */
  evaluateIndexed(
    indices: Int32Array,
    at: number,
    side: number,
    empties: number,
    pl: number,
    ph: number,
    ol: number,
    oh: number,
    ml: number,
    mh: number,
  ): number {
    const stage = this.stageOf[empties];
    const base = stage * PATTERN_BLOCK;
    const w = this.tables;
    let value = 0;
    if (side === 0) {
      for (let i = 0; i < INSTANCE_COUNT; i++) value += w[base + INSTANCE_OFFSET[i] + (indices[at + i] & INDEX_MASK)];
    } else {
      for (let i = 0; i < INSTANCE_COUNT; i++) {
        const word = indices[at + i];
        value += w[base + INSTANCE_OFFSET[i] + 3 * (word >>> INDEX_BITS) - (word & INDEX_MASK)];
      }
    }
    const el = ~(pl | ol);
    const eh = ~(ph | oh);
    const rl = mobility(ol, oh, pl, ph);
    const rh = mobilityHi;
    const nOl = neighbours(ol, oh);
    const nOh = neighboursHi;
    const nPl = neighbours(pl, ph);
    const nPh = neighboursHi;
    const lin = this.linear;
    const k = stage * LINEAR_COUNT;
    value += lin[k] * (popcount(ml) + popcount(mh));
    value += lin[k + 1] * (popcount(rl) + popcount(rh));
    value += lin[k + 2] * (popcount(el & nOl) + popcount(eh & nOh));
    value += lin[k + 3] * (popcount(el & nPl) + popcount(eh & nPh));
    value += lin[k + 4] * (popcount(ml & CORNER_LO) + popcount(mh & CORNER_HI) - popcount(rl & CORNER_LO) - popcount(rh & CORNER_HI));
    value += lin[k + 5] * ((popcount(el) + popcount(eh)) & 1);
    value += lin[k + 6] * 1;
    return Math.round(value);
  }
}
