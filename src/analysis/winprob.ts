/**
 * Win probability for the side to move: 1 / 0.5 / 0 for a proven win / draw / loss; a heuristic score
 * goes through a logistic curve fitted per game to the outcomes of engine games,
 * p = 1 / (1 + exp(-z)), z = sign(score) * (|score| / scale) ^ exponent, score in internal units for
 * the side to move (an exponent below 1 tempers heavy-tailed scores such as threat bonuses; the curve
 * rises with the score for any positive scale and exponent). The constants live
 * in winprob.json, written by `npm run winprob-fit` (tools/winprob-fit.ts), which also reports the
 * calibration on held-out games (docs/analysis.md).
 */
import type { GameId } from '../games/types.js';
import { EVAL_LIMIT } from '../search/score.js';
import data from './winprob.json' with { type: 'json' };

export interface WinProbCurve {
  /** Internal score units at which the log-odds are 1 (> 0). */
  readonly scale: number;
  /** Power applied to |score| / scale (> 0; 1 is the plain logistic). */
  readonly exponent: number;
}

interface WinProbFile {
  readonly games: Readonly<Record<string, { readonly scale: number; readonly exponent?: number; readonly command?: string }>>;
}

/** A heuristic answer never reads as certain: certainty is for proven results only. */
export const HEURISTIC_MIN = 0.001;
export const HEURISTIC_MAX = 0.999;

function checked(file: WinProbFile): Readonly<Record<GameId, WinProbCurve>> {
  const out: Partial<Record<GameId, WinProbCurve>> = {};
  for (const id of ['mnk', 'othello', 'tablut', 'hadron'] as const) {
    const scale = file.games[id]?.scale;
    const exponent = file.games[id]?.exponent ?? 1;
    for (const [name, value] of [['scale', scale], ['exponent', exponent]] as const) {
      if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
        throw new Error(`src/analysis/winprob.json: games.${id}.${name} must be a positive number`);
      }
    }
    out[id] = { scale: scale!, exponent };
  }
  return out as Record<GameId, WinProbCurve>;
}

export const WIN_PROB_CURVES = checked(data as WinProbFile);

/** The command that fitted each game's curve (shown in the catalogue). */
export const WIN_PROB_COMMANDS: Readonly<Record<GameId, string>> = Object.fromEntries(
  (['mnk', 'othello', 'tablut', 'hadron'] as const).map((id) => [id, (data as WinProbFile).games[id]?.command ?? 'npm run winprob-fit']),
) as Record<GameId, string>;

/** The curve at a heuristic score (internal units) for the side to move, unrounded. */
export function logistic(score: number, curve: WinProbCurve): number {
  const clamped = Math.max(-EVAL_LIMIT, Math.min(EVAL_LIMIT, score));
  const z = Math.sign(clamped) * (Math.abs(clamped) / curve.scale) ** curve.exponent;
  return 1 / (1 + Math.exp(-z));
}

/** Win probability of a heuristic score, rounded to 3 decimals and kept inside [0.001, 0.999]. */
export function heuristicWinProbability(game: GameId, score: number): number {
  const p = logistic(score, WIN_PROB_CURVES[game]);
  return Math.min(HEURISTIC_MAX, Math.max(HEURISTIC_MIN, Math.round(p * 1000) / 1000));
}

/** Win probability of a proven outcome. */
export function provenWinProbability(outcome: 'win' | 'draw' | 'loss'): number {
  return outcome === 'win' ? 1 : outcome === 'draw' ? 0.5 : 0;
}
