/**
 * One analysis = the game's own solver (exact endgame, threat-space search...) when it has one and
 * it proves the result in its share of the time, otherwise the generic iterative-deepening search.
 * This is what a worker runs per request; it is plain in-process code so tests call it directly.
 *
 * Several lines or a root filter: a solver proves the position's value with one move, so once the
 * root is proven each other root move is solved on its own (the position after it, its value negated
 * and one ply longer), in the same share of the remaining time; the moves left unproven go to the
 * generic multi-PV search, and proven and searched lines are ranked together. Under a node limit the
 * solvers do not run (their work is not counted in nodes, and would make the count vary).
 */
import type { GameEngine, SearchPosition, SolveContext, SolveResult } from '../games/types.js';
import { NOT_TERMINAL, RESULT_DRAW, RESULT_WIN, WIN_SCORE, isProven } from './score.js';
import { type IterationInfo, type SearchLimits, type SearchLine, type SearchResult, Searcher, rootMoveList } from './search.js';

export interface AnalysisResult extends SearchResult {
  /** Exact final value on the game's client scale, when a solver proved one (Othello disc differential). */
  exactScore?: number;
  /** True when the game's solver (not the generic search) produced the best line. */
  solved: boolean;
}

const DEFAULT_SOLVE_SHARE = 0.5;

export function analyse<P extends SearchPosition>(
  engine: GameEngine<P>,
  pos: P,
  searcher: Searcher,
  limits: SearchLimits,
): AnalysisResult {
  if (engine.solve === undefined || limits.nodeLimit !== undefined) return { ...searcher.search(pos, limits), solved: false };
  const started = Date.now();
  const deadline = limits.deadline ?? Infinity;
  const share = engine.solveTimeShare ?? DEFAULT_SOLVE_SHARE;
  const solved = engine.solve(pos, solveContext(deadline, share, limits.shouldStop));
  const plain = (limits.multiPv ?? 1) <= 1 && limits.rootMoves === undefined;
  if (solved === null) {
    // A cancelled search still returns the first ordered legal move: the client always gets a move.
    return { ...searcher.search(pos, limits), solved: false };
  }
  if (plain) {
    const line = solvedLine(solved);
    limits.onIteration?.({ depth: solved.depth, lines: [line], nodes: solved.nodes, elapsedMs: Date.now() - started });
    if (solved.outcomeOnly === true && solved.score < 0) return leastLoss(pos, searcher, limits, solved);
    if (solved.outcomeOnly === true && solved.score > 0) return widerWin(engine, pos, searcher, limits, solved);
    return provenAnswer(line, solved.depth, solved.nodes);
  }
  return analyseLines(engine, pos, searcher, limits, solved, started);
}

/**
 * A position proven lost by an outcome-only proof: every move loses, and the proof's move is just the
 * first losing one found (at 19-20 Othello empties it gave away about 4 discs a move against NTest's
 * judgement, docs/othello-strength.md). The rest of the budget goes to the generic search, whose move
 * loses least by its evaluation; the answer keeps the proven loss. The search's iterations are not
 * reported: their heuristic scores would contradict the proof already sent.
 */
function leastLoss<P extends SearchPosition>(pos: P, searcher: Searcher, limits: SearchLimits, solved: SolveResult): AnalysisResult {
  const { onIteration: _progress, ...quiet } = limits;
  const search = searcher.search(pos, quiet);
  // The search may itself reach the end and prove its move's loss, with that line's length.
  const score = isProven(search.score) && search.score < 0 ? search.score : solved.score;
  const pv = search.pv.length > 0 ? search.pv : [search.move];
  return provenAnswer({ move: search.move, score, pv, exact: true }, search.depth > 0 ? search.depth : solved.depth, solved.nodes + search.nodes);
}

/**
 * A position proven won by an outcome-only proof: the proof's move is the first winning one found, and
 * often wins by less than others. With a deadline, half of the time left goes to the generic search; if
 * it prefers another move, the position after that move is proven lost for the opponent in the rest of
 * the time, and then that move is played. Otherwise (no deadline, the same move, no proof) the proof's
 * move, with the nodes spent.
 */
function widerWin<P extends SearchPosition>(
  engine: GameEngine<P>,
  pos: P,
  searcher: Searcher,
  limits: SearchLimits,
  solved: SolveResult,
): AnalysisResult {
  const deadline = limits.deadline ?? Infinity;
  if (deadline === Infinity) return provenAnswer(solvedLine(solved), solved.depth, solved.nodes);
  const { onIteration: _progress, ...quiet } = limits;
  const now = Date.now();
  const search = searcher.search(pos, { ...quiet, deadline: now + Math.max(0, deadline - now) / 2 });
  let child: ChildValue | null = null;
  if (search.move >= 0 && search.move !== solved.move) {
    pos.makeMove(search.move);
    child = solveChild(engine, pos, solveContext(deadline, 1, limits.shouldStop));
    pos.unmakeMove(search.move);
  }
  const nodes = solved.nodes + search.nodes + (child?.nodes ?? 0);
  const line = child?.line(search.move);
  if (line === undefined || !isProven(line.score) || line.score <= 0) return provenAnswer(solvedLine(solved), solved.depth, nodes);
  return provenAnswer(line, line.pv.length, nodes);
}

/** The answer of a single proven line (copied, so that the caller's arrays stay its own). */
function provenAnswer(line: SearchLine, depth: number, nodes: number): AnalysisResult {
  const result: AnalysisResult = {
    move: line.move,
    score: line.score,
    pv: [...line.pv],
    depth,
    nodes,
    stopReason: 'proven',
    exact: true,
    solved: true,
    lines: [{ ...line, pv: [...line.pv] }],
  };
  if (line.exactScore !== undefined) result.exactScore = line.exactScore;
  return result;
}

function solveContext(deadline: number, share: number, external: (() => boolean) | undefined): SolveContext {
  const now = Date.now();
  const solveDeadline = deadline === Infinity ? Infinity : now + Math.max(0, deadline - now) * share;
  return {
    deadline: solveDeadline,
    shouldStop: () => Date.now() >= solveDeadline || (external !== undefined && external()),
  };
}

function solvedLine(solved: SolveResult): SearchLine {
  const line: SearchLine = { move: solved.move, score: solved.score, pv: [...solved.pv], exact: true };
  if (solved.exactScore !== undefined) line.exactScore = solved.exactScore;
  return line;
}

/** The root proven by the solver; every other root move solved on its own, the rest searched. */
function analyseLines<P extends SearchPosition>(
  engine: GameEngine<P>,
  pos: P,
  searcher: Searcher,
  limits: SearchLimits,
  solved: SolveResult,
  started: number,
): AnalysisResult {
  const multiPv = Math.max(1, Math.floor(limits.multiPv ?? 1));
  const roots = rootMoveList(pos, multiPv, limits.rootMoves);
  const proven: SearchLine[] = [];
  let nodes = solved.nodes;
  if (roots.includes(solved.move)) proven.push(solvedLine(solved));
  const ctx = solveContext(limits.deadline ?? Infinity, engine.solveTimeShare ?? DEFAULT_SOLVE_SHARE, limits.shouldStop);
  const unsolved: number[] = [];
  for (const move of roots) {
    if (move === solved.move) continue;
    if (ctx.shouldStop()) {
      unsolved.push(move);
      continue;
    }
    pos.makeMove(move);
    const child = solveChild(engine, pos, ctx);
    pos.unmakeMove(move);
    if (child === null) {
      unsolved.push(move);
      continue;
    }
    nodes += child.nodes;
    proven.push(child.line(move));
  }
  const ranked = (searched: readonly SearchLine[]): SearchLine[] => rankLines(proven, searched, multiPv);
  if (proven.length > 0) {
    limits.onIteration?.({ depth: solved.depth, lines: ranked([]), nodes, elapsedMs: Date.now() - started });
  }

  let search: SearchResult | undefined;
  if (unsolved.length > 0) {
    const solverNodes = nodes;
    const onIteration = limits.onIteration;
    search = searcher.search(pos, {
      ...limits,
      rootMoves: unsolved,
      ...(onIteration === undefined
        ? {}
        : {
            onIteration: (info: IterationInfo) =>
              onIteration({ ...info, lines: ranked(info.lines), nodes: solverNodes + info.nodes, elapsedMs: Date.now() - started }),
          }),
    });
    nodes += search.nodes;
  }
  // A search stopped before its first iteration has no scores to rank against proven lines.
  const searched = search === undefined || (search.depth === 0 && proven.length > 0) ? [] : search.lines;
  const lines = ranked(searched);
  const best = lines[0];
  const allExact = lines.every((line) => line.exact);
  const result: AnalysisResult = {
    move: best.move,
    score: best.score,
    pv: [...best.pv],
    depth: search !== undefined && search.depth > 0 ? search.depth : solved.depth,
    nodes,
    stopReason: search === undefined ? 'proven' : search.depth > 0 && allExact ? 'proven' : search.stopReason,
    exact: best.exact,
    solved: proven.includes(best),
    lines,
  };
  if (best.exactScore !== undefined) result.exactScore = best.exactScore;
  return result;
}

/** Proven lines and searched lines together, best first (a proven line first among equal scores). */
function rankLines(proven: readonly SearchLine[], searched: readonly SearchLine[], count: number): SearchLine[] {
  const all = [...proven, ...searched];
  all.sort(compareLines);
  return all.slice(0, count);
}

/**
 * Better line first: by exact final value when both lines have one (a proven score only encodes
 * the distance to the end, not the margin), else by internal score; a proven line first among equals.
 */
export function compareLines(a: SearchLine, b: SearchLine): number {
  if (a.exactScore !== undefined && b.exactScore !== undefined && a.exactScore !== b.exactScore) return b.exactScore - a.exactScore;
  return b.score - a.score || Number(b.exact) - Number(a.exact);
}

interface ChildValue {
  readonly nodes: number;
  /** The root line of the move that led to this child. */
  line(move: number): SearchLine;
}

/** The proven value of the position after a root move (the opponent to move), or null. */
function solveChild<P extends SearchPosition>(engine: GameEngine<P>, child: P, ctx: SolveContext): ChildValue | null {
  let status = child.terminal();
  if (status === NOT_TERMINAL && child.generateMoves(new Int32Array(child.maxMoves), 0) === 0) status = -1;
  if (status !== NOT_TERMINAL) {
    // The game ended with the root move: a draw, or a result one ply from the root.
    const score = status === RESULT_DRAW ? 0 : status === RESULT_WIN ? -(WIN_SCORE - 1) : WIN_SCORE - 1;
    const final = engine.finalScore?.(child);
    return {
      nodes: 0,
      line: (move) => ({ move, score, pv: [move], exact: true, ...(final === undefined ? {} : { exactScore: final === 0 ? 0 : -final }) }),
    };
  }
  const solved = engine.solve!(child, ctx);
  if (solved === null) return null;
  return {
    nodes: solved.nodes,
    line: (move) => {
      const line: SearchLine = { move, score: parentScore(solved.score), pv: [move, ...solved.pv], exact: true };
      if (solved.exactScore !== undefined) line.exactScore = solved.exactScore === 0 ? 0 : -solved.exactScore;
      return line;
    },
  };
}

/** A child's score seen from its parent: negated, and a proven result one ply further away. */
export function parentScore(childScore: number): number {
  if (!isProven(childScore)) return childScore === 0 ? 0 : -childScore;
  return childScore > 0 ? -childScore + 1 : -childScore - 1;
}
