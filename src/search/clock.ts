/**
 * A game clock: one bank of time for all of a side's moves, as tournament play and NTest's own matches
 * use, instead of Kibitz's usual fixed budget a move. Each move gets an even share of what is left over
 * the moves still expected to need time (the game's estimate); the iterative deepening then stops early
 * on stable moves as with any budget (timeman.ts), and what it leaves is banked for the moves after.
 */

export interface GameClock {
  /** Time left for the rest of the game (ms); may be negative once overrun. */
  readonly remainingMs: number;
  /** Time added after each move (ms; 0 for a plain bank). */
  readonly incrementMs: number;
}

/** No move takes more than this share of the bank, so one slow move cannot empty it. */
export const CLOCK_MAX_SHARE = 0.5;
/** A move gets at least this long, even from an empty clock (it must still answer). */
export const CLOCK_MIN_MS = 10;

/** The budget of the next move: the bank over `movesToGo` (at least 1) plus the increment, capped at a share of the bank. */
export function clockMoveBudgetMs(clock: GameClock, movesToGo: number): number {
  const remaining = Math.max(0, clock.remainingMs);
  const even = remaining / Math.max(1, movesToGo);
  const cap = remaining * CLOCK_MAX_SHARE;
  return Math.max(CLOCK_MIN_MS, Math.floor(Math.min(even, cap) + clock.incrementMs));
}
