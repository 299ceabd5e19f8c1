/**
 * How many shares of a game clock (src/search/clock.ts) the side to move's remaining moves need: one a move
 * until CLOCK_FREE_EMPTIES, where the exact solver answers in a fraction of a share (solver.ts: 0.2 s at
 * 20 empties), and one share more kept for all the moves below it.
 */
export const CLOCK_FREE_EMPTIES = 20;

export function othelloMovesToGo(empties: number): number {
  return Math.max(0, Math.ceil((empties - CLOCK_FREE_EMPTIES) / 2)) + 1;
}
