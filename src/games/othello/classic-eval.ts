/**
 * The hand-set evaluation ('classic' profile): a linear model over positional features whose
 * weights depend on the game phase (number of empty squares). It seeded the self-play data the
 * default (pattern) evaluation was fitted on, and stays as a reference opponent in the arena.
 *
 * Features (own minus opponent unless said):
 *  - mobility (legal moves) and potential mobility (empty squares next to the other side's discs),
 *  - frontier discs (next to an empty square),
 *  - corners, and X / C squares next to an empty corner,
 *  - edge-anchored stable discs (EDGE_STABLE),
 *  - disc count and parity (who is due the last move of the game).
 */
import { mobility, mobilityHi, neighbours, neighboursHi, popcount } from './board.js';
import { COLUMN_HI, COLUMN_LO, EDGE_STABLE, TERNARY, columnBits } from './edges.js';
import type { Evaluator } from './position.js';
import { CLASSIC_WEIGHTS, FEATURE_COUNT, phaseOf } from './classic-weights.js';

/** Feature slots of the linear part. */
export const F_MOBILITY = 0;
export const F_POTENTIAL_MOBILITY = 1;
export const F_FRONTIER = 2;
export const F_CORNERS = 3;
export const F_X_SQUARES = 4;
export const F_C_SQUARES = 5;
export const F_STABLE = 6;
export const F_DISCS = 7;
export const F_PARITY = 8;
export const F_BIAS = 9;

const CORNER_LO = 0x00000081;
const CORNER_HI = 0x81000000;

/** Edge indices of the last feature extraction (row 1, row 8, column a, column h). */
export const lastEdges = new Int32Array(4);

/**
 * Features of a position for the side to move into `out` (FEATURE_COUNT slots) and the edge
 * indices into `lastEdges`. Shared by the evaluator and the weight fitting, so both see the same.
 */
export function extractFeatures(pl: number, ph: number, ol: number, oh: number, out: Float64Array): void {
  const el = ~(pl | ol);
  const eh = ~(ph | oh);
  const empties = popcount(el) + popcount(eh);

  const mobP = popcount(mobility(pl, ph, ol, oh)) + popcount(mobilityHi);
  const mobO = popcount(mobility(ol, oh, pl, ph)) + popcount(mobilityHi);

  const nOl = neighbours(ol, oh);
  const nOh = neighboursHi;
  const nPl = neighbours(pl, ph);
  const nPh = neighboursHi;
  const potP = popcount(el & nOl) + popcount(eh & nOh);
  const potO = popcount(el & nPl) + popcount(eh & nPh);

  const nEl = neighbours(el, eh);
  const nEh = neighboursHi;
  const frontier = popcount(pl & nEl) + popcount(ph & nEh) - popcount(ol & nEl) - popcount(oh & nEh);

  const corners = popcount(pl & CORNER_LO) + popcount(ph & CORNER_HI) - popcount(ol & CORNER_LO) - popcount(oh & CORNER_HI);

  let xSquares = 0;
  let cSquares = 0;
  // a1 (0): X b2 (9), C b1 (1) and a2 (8); h1 (7): X g2 (14), C g1 (6), h2 (15).
  if ((el & 1) !== 0) {
    xSquares += ((pl >>> 9) & 1) - ((ol >>> 9) & 1);
    cSquares += ((pl >>> 1) & 1) + ((pl >>> 8) & 1) - ((ol >>> 1) & 1) - ((ol >>> 8) & 1);
  }
  if ((el & 0x80) !== 0) {
    xSquares += ((pl >>> 14) & 1) - ((ol >>> 14) & 1);
    cSquares += ((pl >>> 6) & 1) + ((pl >>> 15) & 1) - ((ol >>> 6) & 1) - ((ol >>> 15) & 1);
  }
  // a8 (56 = hi 24): X b7 (49 = hi 17), C b8 (57 = hi 25), a7 (48 = hi 16).
  if ((eh & 0x01000000) !== 0) {
    xSquares += ((ph >>> 17) & 1) - ((oh >>> 17) & 1);
    cSquares += ((ph >>> 25) & 1) + ((ph >>> 16) & 1) - ((oh >>> 25) & 1) - ((oh >>> 16) & 1);
  }
  // h8 (63 = hi 31): X g7 (54 = hi 22), C g8 (62 = hi 30), h7 (55 = hi 23).
  if ((eh & 0x80000000) !== 0) {
    xSquares += ((ph >>> 22) & 1) - ((oh >>> 22) & 1);
    cSquares += ((ph >>> 30) & 1) + ((ph >>> 23) & 1) - ((oh >>> 30) & 1) - ((oh >>> 23) & 1);
  }

  // Edges: row 1, row 8, column a, column h.
  const row1P = pl & 0xff;
  const row1O = ol & 0xff;
  const row8P = ph >>> 24;
  const row8O = oh >>> 24;
  const colAP = columnBits(pl, ph, 0);
  const colAO = columnBits(ol, oh, 0);
  const colHP = columnBits(pl, ph, 7);
  const colHO = columnBits(ol, oh, 7);
  const e0 = TERNARY[row1P] + 2 * TERNARY[row1O];
  const e1 = TERNARY[row8P] + 2 * TERNARY[row8O];
  const e2 = TERNARY[colAP] + 2 * TERNARY[colAO];
  const e3 = TERNARY[colHP] + 2 * TERNARY[colHO];
  lastEdges[0] = e0;
  lastEdges[1] = e1;
  lastEdges[2] = e2;
  lastEdges[3] = e3;
  const sA = EDGE_STABLE[e2];
  const sH = EDGE_STABLE[e3];
  const stableLo = EDGE_STABLE[e0] | COLUMN_LO[sA] | (COLUMN_LO[sH] << 7);
  const stableHi = (EDGE_STABLE[e1] << 24) | COLUMN_HI[sA] | (COLUMN_HI[sH] << 7);
  const stable = popcount(stableLo & pl) + popcount(stableHi & ph) - popcount(stableLo & ol) - popcount(stableHi & oh);

  out[F_MOBILITY] = mobP - mobO;
  out[F_POTENTIAL_MOBILITY] = potP - potO;
  out[F_FRONTIER] = frontier;
  out[F_CORNERS] = corners;
  out[F_X_SQUARES] = xSquares;
  out[F_C_SQUARES] = cSquares;
  out[F_STABLE] = stable;
  out[F_DISCS] = popcount(pl) + popcount(ph) - popcount(ol) - popcount(oh);
  out[F_PARITY] = (empties & 1) === 1 ? 1 : -1;
  out[F_BIAS] = 1;
}

export class FeatureEvaluator implements Evaluator {
  /** Linear weights per phase: weights[phase * FEATURE_COUNT + feature]. */
  readonly weights: Float64Array;
  private readonly features = new Float64Array(FEATURE_COUNT);

  constructor(weights: Float64Array = CLASSIC_WEIGHTS) {
    this.weights = weights;
  }

  evaluate(pl: number, ph: number, ol: number, oh: number): number {
    const f = this.features;
    extractFeatures(pl, ph, ol, oh, f);
    const empties = 64 - popcount(pl) - popcount(ph) - popcount(ol) - popcount(oh);
    const w = this.weights;
    const base = phaseOf(empties) * FEATURE_COUNT;
    let value = 0;
    for (let k = 0; k < FEATURE_COUNT; k++) value += w[base + k] * f[k];
    return Math.round(value);
  }
}
