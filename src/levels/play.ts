/**
 * A move at a playing level below the top: a node-limited multi-PV search gives the candidates, each
 * candidate's loss of win probability against the best one sets its weight exp(-loss / temperature),
 * and a seeded draw picks one. A weak level so errs the way a weaker player does: often a slightly
 * worse move, rarely a much worse one, and (with the guard) never one that loses at once. The
 * search starts from an empty table, so the same position, level and seed give the same move. An
 * Othello level with `exactEmpties` plays the exact endgame within that many empty squares.
 */
import type { GameEngine, SearchPosition } from '../games/types.js';
import { Random } from '../core/random.js';
import { type WinProbCurve, logistic } from '../analysis/winprob.js';
import { NOT_TERMINAL, RESULT_LOSS, WIN_SCORE, isProven } from '../search/score.js';
import type { SearchLimits, SearchLine, SearchResult, Searcher } from '../search/search.js';
import type { LevelSetting } from './levels.js';

/** Win probability of a line for the side to move: proven results are 1 / 0.5 / 0. */
export function lineWinProbability(line: SearchLine, curve: WinProbCurve): number {
  if (isProven(line.score)) return line.score > 0 ? 1 : 0;
  if (line.exact) return 0.5;
  return logistic(line.score, curve);
}

/** True when, after `move`, the opponent has a move that ends the game with the mover's loss. */
export function losesAtOnce(pos: SearchPosition, move: number, buffer: Int32Array): boolean {
  pos.makeMove(move);
  let loses = false;
  if (pos.terminal() === NOT_TERMINAL) {
    const count = pos.generateMoves(buffer, 0);
    for (let i = 0; i < count && !loses; i++) {
      const reply = buffer[i];
      pos.makeMove(reply);
      const status = pos.terminal();
      loses = status === RESULT_LOSS || (status === NOT_TERMINAL && pos.generateMoves(buffer, count) === 0);
      pos.unmakeMove(reply);
    }
  }
  pos.unmakeMove(move);
  return loses;
}

/** Index of the line drawn with weights exp(-loss / temperature) (the best for temperature 0). */
export function drawLine(probabilities: readonly number[], temperature: number, random: Random): number {
  const best = Math.max(...probabilities);
  if (temperature <= 0) return probabilities.indexOf(best);
  const weights = probabilities.map((p) => Math.exp(-(best - p) / temperature));
  let x = random.nextFloat() * weights.reduce((sum, w) => sum + w, 0);
  for (let i = 0; i < weights.length; i++) {
    x -= weights[i];
    if (x < 0) return i;
  }
  return weights.length - 1;
}

/** The random stream of one request: the seed mixed with the position, so one seed varies over a game. */
export function levelRandom(seed: number, pos: SearchPosition): Random {
  return new Random((seed ^ Math.imul(pos.hashLo, 0x9e3779b1) ^ pos.hashHi) >>> 0);
}

export function playLevel<P extends SearchPosition>(
  engine: GameEngine<P>,
  pos: P,
  searcher: Searcher,
  setting: LevelSetting,
  curve: WinProbCurve,
  seed: number,
  limits: Pick<SearchLimits, 'deadline' | 'shouldStop' | 'rootMoves'> = {},
): SearchResult & { exactScore?: number } {
  const solved = levelEndgame(engine, pos, setting, limits);
  if (solved !== null) return solved;
  searcher.tt.clear();
  const base: SearchLimits = { ...limits, seed, multiPv: setting.lines, nodeLimit: setting.nodes, ...(setting.depth > 0 ? { maxDepth: setting.depth } : {}) };
  let result = searcher.search(pos, base);
  // A node limit below one ply's candidates: the one ply, whatever it costs (a few hundred nodes).
  if (result.depth === 0 && result.move >= 0 && result.stopReason !== 'cancelled') {
    const nodes = result.nodes;
    result = searcher.search(pos, { ...base, nodeLimit: undefined, maxDepth: 1 });
    result.nodes += nodes;
  }
  const lines = result.lines;
  if (lines.length < 2) return result;
  let candidates = lines;
  if (setting.guard) {
    const winNow = lines.find((line) => line.score === WIN_SCORE - 1);
    if (winNow !== undefined) return answer(result, winNow);
    const buffer = new Int32Array(2 * pos.maxMoves);
    const safe = lines.filter((line) => !(isProven(line.score) && line.score < 0) && !losesAtOnce(pos, line.move, buffer));
    if (safe.length > 0) candidates = safe;
  }
  const probabilities = candidates.map((line) => lineWinProbability(line, curve));
  return answer(result, candidates[drawLine(probabilities, setting.temperature, levelRandom(seed, pos))]);
}

/**
 * The level's exact endgame: within `exactEmpties` the solver's best move (a proven result, the same for
 * every seed, so still reproducible); null beyond it, without a solver, under a root filter, or if stopped.
 */
function levelEndgame<P extends SearchPosition>(
  engine: GameEngine<P>,
  pos: P,
  setting: LevelSetting,
  limits: Pick<SearchLimits, 'deadline' | 'shouldStop' | 'rootMoves'>,
): (SearchResult & { exactScore?: number }) | null {
  const empties = setting.exactEmpties ?? 0;
  if (empties <= 0 || engine.solveWithin === undefined || limits.rootMoves !== undefined) return null;
  const deadline = limits.deadline ?? Infinity;
  const stop = limits.shouldStop;
  const solved = engine.solveWithin(pos, empties, { deadline, shouldStop: () => Date.now() >= deadline || (stop !== undefined && stop()) });
  if (solved === null) return null;
  const line: SearchLine = { move: solved.move, score: solved.score, pv: [...solved.pv], exact: true };
  if (solved.exactScore !== undefined) line.exactScore = solved.exactScore;
  return { ...line, pv: [...line.pv], depth: solved.depth, nodes: solved.nodes, stopReason: 'proven', lines: [line] };
}

function answer(result: SearchResult, line: SearchLine): SearchResult {
  return { ...result, move: line.move, score: line.score, pv: [...line.pv], exact: line.exact };
}
