/**
 * Static evaluation and move-ordering hints, read off the incrementally maintained window counts.
 *
 * Internal units: a window one stone short of K, free of enemy stones, weighs 1000 (see profile.ts).
 * The evaluation is the side to move's line score minus the opponent's, with threat terms that
 * depend on who moves next: a K-1 window of the side to move is a win next ply, two distinct
 * enemy K-1 cells cannot both be blocked.
 */
import { TACTICAL_HINT } from '../types.js';
import { LEVEL_FOUR, LEVEL_THREE } from './cells.js';
import type { MnkBoardView } from './board-view.js';
import { doubleThreatCell } from './threat-scan.js';

/** Heuristic value of a position that is won (or lost) in one or two plies, short of a proof. */
export const DECIDED_EVAL = 300_000;
const HEURISTIC_CAP = 200_000;
/** The side to move converts its threats first: its line score counts this much more. */
const TEMPO_NUMERATOR = 5;
const TEMPO_DENOMINATOR = 4;
const THREE_TEMPO_BONUS = 150;
const DOUBLE_THREAT_DISCOUNT = 50_000;
const ENEMY_DOUBLE_PENALTY = 1500;

export function evaluatePosition(pos: MnkBoardView): number {
  const s = pos.side;
  const o = 1 - s;
  // The threat terms read K-1 windows as wins, which under exactK they need not be (an overline):
  // exactK positions get the plain line score.
  if (!pos.profile.tempoAware || pos.exactK) return clamp(pos.lineScore[s] - pos.lineScore[o]);
  if (pos.threatCount(s, LEVEL_FOUR) > 0) return DECIDED_EVAL;
  const enemyFours = pos.threatCount(o, LEVEL_FOUR);
  if (enemyFours > 1 && hasTwoDistinctCells(pos, o, enemyFours)) return -DECIDED_EVAL;
  let value = (pos.lineScore[s] * TEMPO_NUMERATOR) / TEMPO_DENOMINATOR - pos.lineScore[o];
  if (enemyFours === 0) {
    // The mover makes an open / double four now: a win in three plies.
    if (doubleThreatCell(pos, s) >= 0) return DECIDED_EVAL - DOUBLE_THREAT_DISCOUNT;
    // Unanswered threes of the mover become fours with tempo.
    value += THREE_TEMPO_BONUS * Math.min(pos.threatCount(s, LEVEL_THREE), 8);
  }
  // The opponent threatens an open / double four: the mover must spend its move on it.
  if (doubleThreatCell(pos, o) >= 0) value -= ENEMY_DOUBLE_PENALTY;
  return clamp(value);
}

function hasTwoDistinctCells(pos: MnkBoardView, side: number, fours: number): boolean {
  const first = pos.emptyCellOf(pos.threatWindow(side, LEVEL_FOUR, 0));
  for (let i = 1; i < fours; i++) if (pos.emptyCellOf(pos.threatWindow(side, LEVEL_FOUR, i)) !== first) return true;
  return false;
}

function clamp(value: number): number {
  const v = Math.round(value);
  return v > HEURISTIC_CAP ? HEURISTIC_CAP : v < -HEURISTIC_CAP ? -HEURISTIC_CAP : v;
}

const WIN_HINT = TACTICAL_HINT + 400_000;
const BLOCK_HINT = TACTICAL_HINT + 300_000;
const FOUR_HINT = TACTICAL_HINT + 100_000;
/**
 * Moves making, or breaking, two or more K-2 windows at once (an open three, or the block of one):
 * threats and their answers, so the search never reduces them.
 */
const THREE_HINT = TACTICAL_HINT;
const QUIET_CAP = TACTICAL_HINT - 1;
/**
 * The quiet table packs, above this bit, how many K-2 windows (own or enemy) a stone there makes or
 * breaks: at most 4K <= 400 per cell, 9 bits, so the packed sum stays below 2^31; the weights
 * summed below the bit stay under 400 * 3000 < 2^21.
 */
const THREE_SHIFT = 21;
const QUIET_MASK = (1 << THREE_SHIFT) - 1;

/** Bits of a window's entry in the hint flag table (each field counts windows, up to 4K <= 400). */
const FLAG_WIN = 1;
const FLAG_FOUR = 1 << 10;
const FLAG_BLOCK = 1 << 20;
const FLAG_FIELD = (1 << 10) - 1;

/**
 * Per window state (own stones * (K + 1) + enemy stones, from the mover's view): what a stone
 * of the mover there gains (`quiet`) and which tactical events it makes (`flags`). Read by
 * moveOrderHint with one lookup per window instead of a chain of branches.
 */
export function buildHintTables(weights: Int32Array, k: number): { quiet: Int32Array; flags: Int32Array } {
  const size = (k + 1) * (k + 1);
  const quiet = new Int32Array(size);
  const flags = new Int32Array(size);
  for (let own = 0; own <= k; own++) {
    for (let opp = 0; opp <= k; opp++) {
      const at = own * (k + 1) + opp;
      if (opp === 0 && own < k) {
        quiet[at] = weights[own + 1] - weights[own];
        if (own === k - 1) flags[at] = FLAG_WIN;
        else if (own === k - 2) flags[at] = FLAG_FOUR;
        else if (own === k - 3 && own > 0) quiet[at] += 1 << THREE_SHIFT;
      } else if (own === 0 && opp > 0) {
        quiet[at] = weights[opp];
        if (opp === k - 1) flags[at] = FLAG_BLOCK;
        else if (opp === k - 2 && opp > 1) quiet[at] += 1 << THREE_SHIFT;
      }
    }
  }
  return { quiet, flags };
}

/**
 * Ordering hint of a move for the side to move: wins, then blocks of enemy K-1 windows, then moves
 * making a K-1 window (forcing, never reduced), then moves making or breaking several K-2 windows
 * (open threes and their blocks, never reduced either), then the line-weight gained plus the enemy
 * weight destroyed.
 */
export function moveOrderHint(pos: MnkBoardView, move: number): number {
  const g = pos.geometry;
  const counts = pos.counts;
  const quietTable = pos.hintQuiet;
  const flagTable = pos.hintFlags;
  const s = pos.side;
  const stride = pos.k + 1;
  const cellWindows = g.cellWindows;
  let quiet = 0;
  let flags = 0;
  for (let i = g.cellWindowStart[move], end = g.cellWindowStart[move + 1]; i < end; i++) {
    const at = 2 * cellWindows[i];
    const state = counts[at + s] * stride + counts[at + 1 - s];
    quiet += quietTable[state];
    flags += flagTable[state];
  }
  const threes = quiet >>> THREE_SHIFT;
  quiet &= QUIET_MASK;
  if (flags === 0) {
    // An open three is a threat like a four one move later: reducing it (or its block) hid the
    // attacks that decided arena games lost as O on 15x15 (see defence.test.ts).
    if (threes >= 2) return THREE_HINT + Math.min(quiet, 99_999);
    return quiet > QUIET_CAP ? QUIET_CAP : quiet;
  }
  if ((flags & FLAG_FIELD) !== 0) return WIN_HINT;
  if (flags >= FLAG_BLOCK) return BLOCK_HINT + Math.min(quiet, 99_999);
  return FOUR_HINT + Math.min(quiet, 99_999);
}
