/**
 * One analysis = the game's own solver (exact endgame, threat-space search...) when it has one and
 * it proves the result in its share of the time, otherwise the generic iterative-deepening search.
 * This is what a worker runs per request; it is plain in-process code so tests call it directly.
 */
import type { GameEngine, SearchPosition } from '../games/types.js';
import { type SearchLimits, type SearchResult, Searcher } from './search.js';

export interface AnalysisResult extends SearchResult {
  /** Exact final value on the game's client scale, when a solver proved one (Othello disc differential). */
  exactScore?: number;
  /** True when the game's solver (not the generic search) produced the answer. */
  solved: boolean;
}

const DEFAULT_SOLVE_SHARE = 0.5;

export function analyse<P extends SearchPosition>(
  engine: GameEngine<P>,
  pos: P,
  searcher: Searcher,
  limits: SearchLimits,
): AnalysisResult {
  if (engine.solve !== undefined) {
    const now = Date.now();
    const deadline = limits.deadline ?? Infinity;
    const share = engine.solveTimeShare ?? DEFAULT_SOLVE_SHARE;
    const solveDeadline = deadline === Infinity ? Infinity : now + Math.max(0, deadline - now) * share;
    const external = limits.shouldStop;
    const ctx = {
      deadline: solveDeadline,
      shouldStop: () => Date.now() >= solveDeadline || (external !== undefined && external()),
    };
    const solved = engine.solve(pos, ctx);
    if (solved !== null) {
      const result: AnalysisResult = {
        move: solved.move,
        score: solved.score,
        pv: [...solved.pv],
        depth: solved.depth,
        nodes: solved.nodes,
        stopReason: 'proven',
        exact: true,
        solved: true,
      };
      if (solved.exactScore !== undefined) result.exactScore = solved.exactScore;
      return result;
    }
  }
  // A cancelled search still returns the first ordered legal move: the client always gets a move.
  return { ...searcher.search(pos, limits), solved: false };
}
