/**
 * Win probability for the side to move: 1 / 0.5 / 0 for a proven win / draw / loss; a heuristic score
 * goes through a logistic curve fitted per game to the outcomes of engine games,
 * p = 1 / (1 + exp(-score / scale)), score in internal units for the side to move. The constants live
 * in winprob.json, written by `npm run winprob-fit` (tools/winprob-fit.ts), which also reports the
 * calibration on held-out games (docs/analysis.md).
 */
import type { GameId } from '../games/types.js';
import { EVAL_LIMIT } from '../search/score.js';
import data from './winprob.json' with { type: 'json' };

export interface WinProbCurve {
  /** Internal score units per unit of log-odds (> 0, so the curve rises with the score). */
  readonly scale: number;
}

interface WinProbFile {
  readonly games: Readonly<Record<string, { readonly scale: number }>>;
}

/** A heuristic answer never reads as certain: certainty is for proven results only. */
export const HEURISTIC_MIN = 0.001;
export const HEURISTIC_MAX = 0.999;

function checked(file: WinProbFile): Readonly<Record<GameId, WinProbCurve>> {
  const out: Partial<Record<GameId, WinProbCurve>> = {};
  for (const id of ['mnk', 'othello', 'tablut', 'hadron'] as const) {
    const scale = file.games[id]?.scale;
    if (typeof scale !== 'number' || !Number.isFinite(scale) || scale <= 0) {
      throw new Error(`src/analysis/winprob.json: games.${id}.scale must be a positive number`);
    }
    out[id] = { scale };
  }
  return out as Record<GameId, WinProbCurve>;
}

export const WIN_PROB_CURVES = checked(data as WinProbFile);

/** Logistic curve of a heuristic score (internal units) for the side to move, unrounded. */
export function logistic(score: number, scale: number): number {
  const clamped = Math.max(-EVAL_LIMIT, Math.min(EVAL_LIMIT, score));
  return 1 / (1 + Math.exp(-clamped / scale));
}

/** Win probability of a heuristic score, rounded to 3 decimals and kept inside [0.001, 0.999]. */
export function heuristicWinProbability(game: GameId, score: number): number {
  const p = logistic(score, WIN_PROB_CURVES[game].scale);
  return Math.min(HEURISTIC_MAX, Math.max(HEURISTIC_MIN, Math.round(p * 1000) / 1000));
}

/** Win probability of a proven outcome. */
export function provenWinProbability(outcome: 'win' | 'draw' | 'loss'): number {
  return outcome === 'win' ? 1 : outcome === 'draw' ? 0.5 : 0;
}
