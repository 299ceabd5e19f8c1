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
/** Border squares: a disc there has an off-board neighbour on every line except along the edge. */
const COL_AH = 0x81818181;
const ROW1 = 0x000000ff;
const ROW8 = 0xff000000;
const EDGE_LO = 0x818181ff;
const EDGE_HI = 0xff818181;

/** Diagonal masks (a1-h8 direction, then a8-h1 direction), for the full-line test. */
const DIAG_LO: number[] = [];
const DIAG_HI: number[] = [];
const ANTI_LO: number[] = [];
const ANTI_HI: number[] = [];
for (let k = -6; k <= 6; k++) {
  let dl = 0;
  let dh = 0;
  let al = 0;
  let ah = 0;
  for (let row = 0; row < 8; row++) {
    const c1 = row + k; // col - row = k
    if (c1 >= 0 && c1 < 8) {
      const sq = row * 8 + c1;
      if (sq < 32) dl |= 1 << sq;
      else dh |= 1 << (sq - 32);
    }
    const c2 = 7 - row + k; // col + row = 7 + k
    if (c2 >= 0 && c2 < 8) {
      const sq = row * 8 + c2;
      if (sq < 32) al |= 1 << sq;
      else ah |= 1 << (sq - 32);
    }
  }
  DIAG_LO.push(dl);
  DIAG_HI.push(dh);
  ANTI_LO.push(al);
  ANTI_HI.push(ah);
}
const DIAGONALS = DIAG_LO.length;
const DLO = new Int32Array(DIAG_LO);
const DHI = new Int32Array(DIAG_HI);
const ALO = new Int32Array(ANTI_LO);
const AHI = new Int32Array(ANTI_HI);

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

  // Full lines, plus the squares where the orientation leaves the board.
  let hl = COL_AH;
  let hh = COL_AH;
  for (let i = 0; i < 32; i += 8) {
    if (((fl >>> i) & 0xff) === 0xff) hl |= 0xff << i;
    if (((fh >>> i) & 0xff) === 0xff) hh |= 0xff << i;
  }
  const col = fl & (fl >>> 8) & (fl >>> 16) & (fl >>> 24) & fh & (fh >>> 8) & (fh >>> 16) & (fh >>> 24) & 0xff;
  const vl = Math.imul(col, 0x01010101) | ROW1;
  const vh = Math.imul(col, 0x01010101) | ROW8;
  let dl = EDGE_LO;
  let dh = EDGE_HI;
  let al = EDGE_LO;
  let ah = EDGE_HI;
  for (let k = 0; k < DIAGONALS; k++) {
    if ((fl & DLO[k]) === DLO[k] && (fh & DHI[k]) === DHI[k]) {
      dl |= DLO[k];
      dh |= DHI[k];
    }
    if ((fl & ALO[k]) === ALO[k] && (fh & AHI[k]) === AHI[k]) {
      al |= ALO[k];
      ah |= AHI[k];
    }
  }

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
