/**
 * Legal move generation: rook slides on precomputed rays.
 *
 * A piece may only slide over and land on EMPTY squares (the throne is never EMPTY: it holds the
 * king or the THRONE marker). A piece that does not start on a camp may not enter or cross a camp;
 * a black pawn starting on a camp may cross camps, and land on one only within 5 squares (the
 * server's rule, which in practice keeps it inside its own camp group).
 */
import { CAMP, EMPTY, RAY, RAY_LENGTH, SQUARES } from './board.js';

/** Longest slide that may end on a camp when starting from a camp. */
const MAX_CAMP_TO_CAMP_DISTANCE = 5;

/** Appends the moves of the piece on `from` to buf; returns the new write index. */
export function generatePieceMoves(board: Uint8Array, from: number, buf: Int32Array, at: number): number {
  const base = from * SQUARES;
  const fromCamp = CAMP[from] === 1;
  for (let d = 0; d < 4; d++) {
    const rayIndex = from * 4 + d;
    const length = RAY_LENGTH[rayIndex];
    const start = rayIndex * 8;
    if (!fromCamp) {
      for (let k = 0; k < length; k++) {
        const to = RAY[start + k];
        if (board[to] !== EMPTY || CAMP[to] === 1) break;
        buf[at++] = base + to;
      }
    } else {
      for (let k = 0; k < length; k++) {
        const to = RAY[start + k];
        if (board[to] !== EMPTY) break;
        if (CAMP[to] === 1 && k + 1 > MAX_CAMP_TO_CAMP_DISTANCE) continue;
        buf[at++] = base + to;
      }
    }
  }
  return at;
}

/** A piece's moves never exceed four rays of eight squares; countPieceMoves writes them here and keeps only the count. */
const COUNT_SCRATCH = new Int32Array(32);

/** How many moves the piece on `from` has: the generator's own rules, into a scratch buffer. */
export function countPieceMoves(board: Uint8Array, from: number): number {
  return generatePieceMoves(board, from, COUNT_SCRATCH, 0);
}

/** True when the piece on `from` may legally slide to `to` (same checks as the generator). */
export function isPieceMoveLegal(board: Uint8Array, from: number, to: number): boolean {
  const fromCamp = CAMP[from] === 1;
  for (let d = 0; d < 4; d++) {
    const rayIndex = from * 4 + d;
    const length = RAY_LENGTH[rayIndex];
    const start = rayIndex * 8;
    for (let k = 0; k < length; k++) {
      const sq = RAY[start + k];
      if (board[sq] !== EMPTY) break;
      if (CAMP[sq] === 1 && !fromCamp) break;
      if (sq === to) return !(CAMP[sq] === 1 && k + 1 > MAX_CAMP_TO_CAMP_DISTANCE);
    }
  }
  return false;
}
