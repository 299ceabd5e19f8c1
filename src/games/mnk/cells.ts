/**
 * Cell and threat-level constants shared by the position, move generation, evaluation and threat scan
 * (a leaf module, so those can import them without importing the position).
 */
export const EMPTY = 0;
/** Largest board: 100 x 100 cells. */
export const MAX_CELLS = 100 * 100;
/** Threat levels: windows K-1 stones full (one move from a win) and K-2 stones full. */
export const LEVEL_FOUR = 0;
export const LEVEL_THREE = 1;
