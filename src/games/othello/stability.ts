/**
 * Stable discs: discs that can never be flipped again, whatever is played. Used by the endgame
 * solver to cut (the opponent's stable discs bound the final score) and by the evaluation.
 *
 * A disc cannot be flipped along a line when the line is full, or when one of its two neighbours
 * on that line is off the board or a stable disc of its own colour (any bracketing run through it
 * would have to flip that neighbour too). Starting from the edge-anchored stable discs, the rule is
 * applied along the four line orientations until nothing changes. This is a safe under-estimate.
 */
import { COLUMN_HI, COLUMN_LO, EDGE_STABLE, TERNARY, columnBits } from './edges.js';

const NOT_A = 0xfefefefe;
const NOT_H = 0x7f7f7f7f;
const NOT_AB = 0xfcfcfcfc;
const NOT_GH = 0x3f3f3f3f;
const NOT_ABCD = 0xf0f0f0f0;
const NOT_EFGH = 0x0f0f0f0f;
/** Border squares: a disc there has an off-board neighbour on every line except along the edge. */
const COL_AH = 0x81818181;
const ROW1 = 0x000000ff;
const ROW8 = 0xff000000;
const EDGE_LO = 0x818181ff;
const EDGE_HI = 0xff818181;

/** High half of the last `stableDiscs` result. */
export let stableHi = 0;

/** Stable discs of the player (pl, ph) against (ol, oh): low half returned, high half in `stableHi`. */
export function stableDiscs(pl: number, ph: number, ol: number, oh: number): number {
  const fl = pl | ol;
  const fh = ph | oh;

  // Edge-anchored stability from the edge table, restricted to the player's discs.
  const sA = EDGE_STABLE[TERNARY[columnBits(pl, ph, 0)] + 2 * TERNARY[columnBits(ol, oh, 0)]];
  const sH = EDGE_STABLE[TERNARY[columnBits(pl, ph, 7)] + 2 * TERNARY[columnBits(ol, oh, 7)]];
  let sl = (EDGE_STABLE[TERNARY[pl & 0xff] + 2 * TERNARY[ol & 0xff]] | COLUMN_LO[sA] | (COLUMN_LO[sH] << 7)) & pl;
  let sh = ((EDGE_STABLE[TERNARY[ph >>> 24] + 2 * TERNARY[oh >>> 24]] << 24) | COLUMN_HI[sA] | (COLUMN_HI[sH] << 7)) & ph;

  // Full lines, plus the squares where the orientation leaves the board. Rows: a byte is full when
  // the AND of its eight bits, folded into its lowest bit, is set.
  let t = fl & (fl >>> 4);
  t &= t >>> 2;
  t &= t >>> 1;
  const hl = COL_AH | Math.imul(t & 0x01010101, 0xff);
  t = fh & (fh >>> 4);
  t &= t >>> 2;
  t &= t >>> 1;
  const hh = COL_AH | Math.imul(t & 0x01010101, 0xff);
  const col = fl & (fl >>> 8) & (fl >>> 16) & (fl >>> 24) & fh & (fh >>> 8) & (fh >>> 16) & (fh >>> 24) & 0xff;
  const vl = Math.imul(col, 0x01010101) | ROW1;
  const vh = Math.imul(col, 0x01010101) | ROW8;
  // Diagonals: spread the empty squares along them both ways (steps 1, 2, 4); the squares not
  // reached lie on full diagonals.
  let el = ~fl;
  let eh = ~fh;
  let nl = el | ((el << 9) & NOT_A) | (((el >>> 9) | (eh << 23)) & NOT_H);
  let nh = eh | (((eh << 9) | (el >>> 23)) & NOT_A) | ((eh >>> 9) & NOT_H);
  el = nl | ((nl << 18) & NOT_AB) | (((nl >>> 18) | (nh << 14)) & NOT_GH);
  eh = nh | (((nh << 18) | (nl >>> 14)) & NOT_AB) | ((nh >>> 18) & NOT_GH);
  const dl = EDGE_LO | ~(el | ((eh >>> 4) & NOT_EFGH));
  const dh = EDGE_HI | ~(eh | ((el << 4) & NOT_ABCD));
  el = ~fl;
  eh = ~fh;
  nl = el | ((el << 7) & NOT_H) | (((el >>> 7) | (eh << 25)) & NOT_A);
  nh = eh | (((eh << 7) | (el >>> 25)) & NOT_H) | ((eh >>> 7) & NOT_A);
  el = nl | ((nl << 14) & NOT_GH) | (((nl >>> 14) | (nh << 18)) & NOT_AB);
  eh = nh | (((nh << 14) | (nl >>> 18)) & NOT_GH) | ((nh >>> 14) & NOT_AB);
  const al = EDGE_LO | ~(el | ((el << 28) & NOT_EFGH) | (((el >>> 28) | (eh << 4)) & NOT_ABCD));
  const ah = EDGE_HI | ~(eh | (((eh << 28) | (el >>> 4)) & NOT_EFGH) | ((eh >>> 28) & NOT_ABCD));

  // Grow: a disc is stable when every orientation is safe (full, off-board, or a stable neighbour).
  for (;;) {
    const eastWestL = hl | ((sl << 1) & NOT_A) | ((sl >>> 1) & NOT_H);
    const eastWestH = hh | ((sh << 1) & NOT_A) | ((sh >>> 1) & NOT_H);
    const northSouthL = vl | (sl << 8) | (sl >>> 8) | (sh << 24);
    const northSouthH = vh | (sh << 8) | (sh >>> 8) | (sl >>> 24);
    // +9 / -9 (a1-h8 orientation) and +7 / -7 (a8-h1 orientation).
    const diag9L = dl | ((sl << 9) & NOT_A) | (((sl >>> 9) | (sh << 23)) & NOT_H);
    const diag9H = dh | (((sh << 9) | (sl >>> 23)) & NOT_A) | ((sh >>> 9) & NOT_H);
    const diag7L = al | ((sl << 7) & NOT_H) | (((sl >>> 7) | (sh << 25)) & NOT_A);
    const diag7H = ah | (((sh << 7) | (sl >>> 25)) & NOT_H) | ((sh >>> 7) & NOT_A);
    const nl = sl | (pl & eastWestL & northSouthL & diag9L & diag7L);
    const nh = sh | (ph & eastWestH & northSouthH & diag9H & diag7H);
    if (nl === sl && nh === sh) break;
    sl = nl;
    sh = nh;
  }
  stableHi = sh;
  return sl;
}
