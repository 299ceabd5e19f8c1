/**
 * Othello-specific perft on bitboards passed by value (the solver's code path): no make/unmake and
 * no move list, and the last ply counts moves with a popcount. The generic perft of
 * src/search/perft.ts checks the SearchPosition face; this one measures raw move generation.
 *
 * Conventions as in perft.json: a pass is one ply; a game finished before `depth` counts 0 (Edax),
 * or 1 with `countFinishedGames`.
 */
import { mobility, mobilityHi, popcount } from './board.js';
import { flipsHi, flipsHighSquare, flipsLowSquare, countReplies } from './flips.js';
import type { OthelloPosition } from './position.js';

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
  if (depth === 2) return countReplies(pl, ph, ol, oh, ml, mh, countFinished ? 1 : 0);
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


