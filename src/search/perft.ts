/**
 * Perft: the number of move sequences of exactly `depth` plies, the standard check of a move
 * generator against reference counts. A finished game before `depth` contributes 0 (Edax's
 * convention), or 1 with `countFinishedGames` (the convention of the widely quoted Othello figures).
 */
import type { SearchPosition } from '../games/types.js';
import { NOT_TERMINAL } from './score.js';

export function perft(pos: SearchPosition, depth: number, countFinishedGames = false): number {
  const buffer = new Int32Array((depth + 1) * pos.maxMoves);
  return walk(pos, depth, countFinishedGames, buffer, 0);
}

function walk(pos: SearchPosition, depth: number, countFinished: boolean, buffer: Int32Array, offset: number): number {
  if (depth === 0) return 1;
  if (pos.terminal() !== NOT_TERMINAL) return countFinished ? 1 : 0;
  const count = pos.generateMoves(buffer, offset);
  if (count === 0) return countFinished ? 1 : 0;
  // Bulk counting: at the last ply every generated move is one sequence.
  if (depth === 1) return count;
  let total = 0;
  for (let i = offset, end = offset + count; i < end; i++) {
    const move = buffer[i];
    pos.makeMove(move);
    total += walk(pos, depth - 1, countFinished, buffer, end);
    pos.unmakeMove(move);
  }
  return total;
}
