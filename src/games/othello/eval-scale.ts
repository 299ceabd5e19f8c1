/**
 * Internal evaluation units: the heuristic estimates the final disc differential for the side to
 * move, in hundredths of a disc.
 */
export const EVAL_UNITS_PER_DISC = 100;
