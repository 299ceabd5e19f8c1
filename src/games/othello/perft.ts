/**
 * Othello-specific perft on bitboards passed by value (the solver's code path): no make/unmake and
 * no move list, and the last ply counts moves with a popcount. The generic perft of
 * src/search/perft.ts checks the SearchPosition face; this one measures raw move generation.
 *
 * Conventions as in perft.json: a pass is one ply; a game finished before `depth` counts 0 (Edax),
 * or 1 with `countFinishedGames`.
 */
import { mobility, mobilityHi, popcount } from './board.js';
import { flipsHi, flipsHighSquare, flipsLowSquare } from './flips.js';
import type { OthelloPosition } from './position.js';

/** board.ts's INNER, local: V8 folds a module's own constant but loads an imported one every time. */
const INNER = 0x7e7e7e7e;

export function fastPerft(pos: OthelloPosition, depth: number, countFinishedGames = false): number {
  const b = pos.bits;
  const s = pos.side << 1;
  return walk(b[s], b[s + 1], b[2 - s], b[3 - s], depth, countFinishedGames);
}

function walk(pl: number, ph: number, ol: number, oh: number, depth: number, countFinished: boolean): number {
  if (depth === 0) return 1;
  let ml = mobility(pl, ph, ol, oh);
  let mh = mobilityHi;
  if ((ml | mh) === 0) {
    if ((mobility(ol, oh, pl, ph) | mobilityHi) === 0) return countFinished ? 1 : 0;
    return depth === 1 ? 1 : walk(ol, oh, pl, ph, depth - 1, countFinished);
  }
  if (depth === 1) return popcount(ml) + popcount(mh);
  if (depth === 2) return leafParents(pl, ph, ol, oh, ml, mh, countFinished);
  let total = 0;
  while (ml !== 0) {
    const sq = 31 - Math.clz32(ml);
    const bit = 1 << sq;
    ml ^= bit;
    const fl = flipsLowSquare(sq, pl, ph, ol, oh);
    const fh = flipsHi;
    total += walk(ol ^ fl, oh ^ fh, pl | fl | bit, ph | fh, depth - 1, countFinished);
  }
  while (mh !== 0) {
    const sq = 63 - Math.clz32(mh);
    const bit = 1 << sq;
    mh ^= bit;
    const fl = flipsHighSquare(sq, pl, ph, ol, oh);
    const fh = flipsHi;
    total += walk(ol ^ fl, oh ^ fh, pl | fl, ph | fh | bit, depth - 1, countFinished);
  }
  return total;
}


/**
 * depth 2 unrolled: each child's moves counted where it is made (most of perft's nodes are here).
 * The child's mobility is `mobility` of board.ts written out again: V8 does not inline a function
 * that large, and the call cost about 15% of perft.
 */
function leafParents(pl: number, ph: number, ol: number, oh: number, ml: number, mh: number, countFinished: boolean): number {
  let total = 0;
  while ((ml | mh) !== 0) {
    // Child: the opponent (cl, ch) moves against the player (dl, dh).
    let cl: number;
    let ch: number;
    let dl: number;
    let dh: number;
    if (ml !== 0) {
      const sq = 31 - Math.clz32(ml);
      const bit = 1 << sq;
      ml ^= bit;
      const gl = flipsLowSquare(sq, pl, ph, ol, oh);
      const gh = flipsHi;
      cl = ol ^ gl;
      ch = oh ^ gh;
      dl = pl | gl | bit;
      dh = ph | gh;
    } else {
      const sq = 63 - Math.clz32(mh);
      const bit = 1 << sq;
      mh ^= bit;
      const gl = flipsHighSquare(sq, pl, ph, ol, oh);
      const gh = flipsHi;
      cl = ol ^ gl;
      ch = oh ^ gh;
      dl = pl | gl;
      dh = ph | gh | bit;
    }
    const il = dl & INNER;
    const ih = dh & INNER;
    let fl: number;
    let fh: number;
    let xl = (il + (il & (cl << 1))) | 0;
    let xh = (ih + (ih & (ch << 1))) | 0;
    fl = il & (cl >>> 1);
    fh = ih & (ch >>> 1);
    fl |= il & (fl >>> 1);
    fh |= ih & (fh >>> 1);
    const pairL = il & (il >>> 1);
    const pairH = ih & (ih >>> 1);
    fl |= pairL & (fl >>> 2);
    fh |= pairH & (fh >>> 2);
    fl |= pairL & (fl >>> 2);
    fh |= pairH & (fh >>> 2);
    xl |= fl >>> 1;
    xh |= fh >>> 1;
    fl = dl & (cl << 8);
    fl |= dl & (fl << 8);
    fl |= dl & (fl << 8);
    fh = dh & ((ch << 8) | ((cl | fl) >>> 24));
    fh |= dh & (fh << 8);
    fh |= dh & (fh << 8);
    xl |= fl << 8;
    xh |= (fh << 8) | (fl >>> 24);
    fh = dh & (ch >>> 8);
    fh |= dh & (fh >>> 8);
    fh |= dh & (fh >>> 8);
    fl = dl & ((cl >>> 8) | ((ch | fh) << 24));
    fl |= dl & (fl >>> 8);
    fl |= dl & (fl >>> 8);
    xh |= fh >>> 8;
    xl |= (fl >>> 8) | (fh << 24);
    fl = il & (cl << 9);
    fl |= il & (fl << 9);
    fl |= il & (fl << 9);
    fh = ih & ((ch << 9) | ((cl | fl) >>> 23));
    fh |= ih & (fh << 9);
    fh |= ih & (fh << 9);
    xl |= fl << 9;
    xh |= (fh << 9) | (fl >>> 23);
    fh = ih & (ch >>> 9);
    fh |= ih & (fh >>> 9);
    fh |= ih & (fh >>> 9);
    fl = il & ((cl >>> 9) | ((ch | fh) << 23));
    fl |= il & (fl >>> 9);
    fl |= il & (fl >>> 9);
    xh |= fh >>> 9;
    xl |= (fl >>> 9) | (fh << 23);
    fl = il & (cl << 7);
    fl |= il & (fl << 7);
    fl |= il & (fl << 7);
    fh = ih & ((ch << 7) | ((cl | fl) >>> 25));
    fh |= ih & (fh << 7);
    fh |= ih & (fh << 7);
    xl |= fl << 7;
    xh |= (fh << 7) | (fl >>> 25);
    fh = ih & (ch >>> 7);
    fh |= ih & (fh >>> 7);
    fh |= ih & (fh >>> 7);
    fl = il & ((cl >>> 7) | ((ch | fh) << 25));
    fl |= il & (fl >>> 7);
    fl |= il & (fl >>> 7);
    xh |= fh >>> 7;
    xl |= (fl >>> 7) | (fh << 25);
    xl &= ~(cl | dl);
    xh &= ~(ch | dh);
    if ((xl | xh) !== 0) {
      total += popcount2(xl, xh);
    } else if ((mobility(dl, dh, cl, ch) | mobilityHi) !== 0) {
      total += 1;
    } else if (countFinished) {
      total += 1;
    }
  }
  return total;
}

/** popcount(l) + popcount(h), sharing the last steps (the per-byte sums of both fit in a byte). */
function popcount2(l: number, h: number): number {
  l = (l & 0x55555555) + ((l >>> 1) & 0x55555555);
  h = (h & 0x55555555) + ((h >>> 1) & 0x55555555);
  l = (l & 0x33333333) + ((l >>> 2) & 0x33333333) + (h & 0x33333333) + ((h >>> 2) & 0x33333333);
  l = (l & 0x0f0f0f0f) + ((l >>> 4) & 0x0f0f0f0f);
  return Math.imul(l, 0x01010101) >>> 24;
}
