/**
 * Othello-specific perft on bitboards passed by value, with the solver's move generation (flips.ts,
 * board.ts's mobility): no make/unmake and no move list, and the last ply counts moves with a
 * popcount. The recursion is perftBits in flips.ts (why there: perftMoves). The generic perft of
 * src/search/perft.ts checks the SearchPosition face; this one measures raw move generation.
 *
 * Conventions as in perft.json: a pass is one ply; a game finished before `depth` counts 0 (Edax),
 * or 1 with `countFinishedGames`.
 */
import { perftBits } from './flips.js';
import type { OthelloPosition } from './position.js';

export function fastPerft(pos: OthelloPosition, depth: number, countFinishedGames = false): number {
  const b = pos.bits;
  const s = pos.side << 1;
  return perftBits(b[s], b[s + 1], b[2 - s], b[3 - s], depth, countFinishedGames ? 1 : 0);
}
