/**
 * What every AssemblyScript search kernel (the games' assembly/search.ts) shares with the generic search: its imports
 * from the host (src/search/search.ts's SubtreeHost, through the kernel's TypeScript face) and the constants of
 * src/search/score.ts and search.ts it must agree with to search the same tree.
 * Not tsc input (tsconfig excludes this folder): `i32` and the decorators are AssemblyScript's.
 */

/** Table probe: 1 on a hit, whose move, score, depth, bound and exact-subtree flag the host wrote into the kernel's memory. */
// @ts-ignore: decorator
@external('env', 'ttProbe')
export declare function ttProbe(lo: i32, hi: i32, ply: i32): i32;
// @ts-ignore: decorator
@external('env', 'ttStore')
export declare function ttStore(lo: i32, hi: i32, depth: i32, bound: i32, score: i32, ply: i32, move: i32, exact: i32): void;
/** The search's stop check at this node count: 1 stops it. */
// @ts-ignore: decorator
@external('env', 'pollStop')
export declare function pollStop(nodes: f64): i32;

// src/search/score.ts.
export const WIN_SCORE: i32 = 1000000;
export const MAX_PLY: i32 = 256;
export const PROVEN_THRESHOLD: i32 = WIN_SCORE - 10000;
export const EVAL_LIMIT: i32 = 500000;
export const INFINITE_SCORE: i32 = WIN_SCORE + 1;
export const DRAW_SCORE: i32 = 0;
// src/search/tt.ts and search.ts.
export const BOUND_UPPER: i32 = 1;
export const BOUND_LOWER: i32 = 2;
export const BOUND_EXACT: i32 = 3;
export const TT_MOVE_BONUS: i32 = 1 << 30;
export const KILLER_BONUS_1: i32 = 1 << 29;
export const KILLER_BONUS_2: i32 = (1 << 29) - 1;
export const HISTORY_LIMIT: i32 = 1 << 20;
export const HINT_WEIGHT: i32 = 4;
/** src/games/types.ts TACTICAL_HINT, and the ordering score it makes. */
export const TACTICAL_HINT: i32 = 500000;
export const TACTICAL_ORDER_SCORE: i32 = TACTICAL_HINT * HINT_WEIGHT;

@inline export function isProven(score: i32): bool {
  return score >= PROVEN_THRESHOLD || score <= -PROVEN_THRESHOLD;
}

/** pick.ts pickBest on i32 lists at addresses `moves` and `scores`: swaps the best-scored of [at, end) into `at` (ties keep list order). */
export function pickBest(moves: i32, scores: i32, at: i32, end: i32): i32 {
  let bestAt = at;
  let bestScore = load<i32>(scores + (at << 2));
  for (let j = at + 1; j < end; j++) {
    const score = load<i32>(scores + (j << 2));
    if (score > bestScore) {
      bestScore = score;
      bestAt = j;
    }
  }
  const move = load<i32>(moves + (bestAt << 2));
  if (bestAt != at) {
    store<i32>(moves + (bestAt << 2), load<i32>(moves + (at << 2)));
    store<i32>(scores + (bestAt << 2), load<i32>(scores + (at << 2)));
    store<i32>(moves + (at << 2), move);
    store<i32>(scores + (at << 2), bestScore);
  }
  return move;
}
