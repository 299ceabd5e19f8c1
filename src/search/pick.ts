/**
 * Lazy move selection shared by the searches: instead of sorting a move list, each step swaps the
 * best-scored remaining move into place (most nodes cut after a move or two, and threat-search
 * defender nodes can list the whole board). Ties keep list order, so trees stay reproducible.
 */

/** Swaps the best-scored move of moves[at .. end) into slot `at` (scores move with it) and returns it. */
export function pickBest(moves: Int32Array, scores: Int32Array, at: number, end: number): number {
  let bestAt = at;
  let bestScore = scores[at];
  for (let j = at + 1; j < end; j++) {
    if (scores[j] > bestScore) {
      bestScore = scores[j];
      bestAt = j;
    }
  }
  const move = moves[bestAt];
  if (bestAt !== at) {
    moves[bestAt] = moves[at];
    scores[bestAt] = scores[at];
    moves[at] = move;
    scores[at] = bestScore;
  }
  return move;
}
