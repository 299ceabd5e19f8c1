/**
 * Internal score scale shared by every game and the search.
 *
 * Heuristic evaluations live strictly inside (-EVAL_LIMIT, EVAL_LIMIT). Proven results are encoded
 * as distance-to-end scores: a win reached `plies` half-moves from the root scores WIN_SCORE - plies,
 * a loss -(WIN_SCORE - plies), a draw DRAW_SCORE. These numbers never reach a client: the HTTP layer
 * turns them into `{score, outcome, plies}` on the game's documented scale.
 */
export const WIN_SCORE = 1_000_000;
/** Deepest ply the search may reach from the root (sizes the PV and killer tables). */
export const MAX_PLY = 256;
/** Any |score| at or above this is a proven result. */
export const PROVEN_THRESHOLD = WIN_SCORE - 10_000;
/** Bound on |evaluate()|; the search clamps anything beyond it. */
export const EVAL_LIMIT = 500_000;

/** A heuristic value on a game's client scale: clamped to the heuristic range, divided, rounded. */
export function scaledClientScore(internal: number, divisor: number): number {
  return Math.round(Math.max(-EVAL_LIMIT, Math.min(EVAL_LIMIT, internal)) / divisor);
}
export const DRAW_SCORE = 0;
/** Larger than every reachable score: the initial alpha-beta window. */
export const INFINITE_SCORE = WIN_SCORE + 1;

/** Terminal status, from the side to move's point of view. */
export const NOT_TERMINAL = 2;
export const RESULT_WIN = 1;
export const RESULT_DRAW = 0;
export const RESULT_LOSS = -1;

export function isProven(score: number): boolean {
  return score >= PROVEN_THRESHOLD || score <= -PROVEN_THRESHOLD;
}

/** Plies to the end of the game encoded in a proven score. */
export function provenPlies(score: number): number {
  return WIN_SCORE - Math.abs(score);
}

export type Outcome = 'win' | 'loss' | 'draw';
