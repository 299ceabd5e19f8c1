/**
 * How many of the side to move's moves still need time, for a game clock (src/search/clock.ts): its moves
 * until CLOCK_FREE_EMPTIES, where the exact solver answers in a fraction of any share (solver.ts: 0.2 s at
 * 20 empties); the moves below cost next to nothing, so the bank is spread over those above.
 */
export const CLOCK_FREE_EMPTIES = 20;

export function othelloMovesToGo(empties: number): number {
  return Math.max(1, Math.ceil((empties - CLOCK_FREE_EMPTIES) / 2));
}
