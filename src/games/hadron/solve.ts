/**
 * engine.solve: decides whether an exact solve is worth trying, proves the winner move by move at
 * the root (so the answer carries a concrete winning move), then plays out a proven line to give
 * the result its length in plies.
 *
 * `plies` is the length of the line the solver plays out: the winner follows proven winning moves,
 * the loser plays its first proven-losing move. It is a correct game length under the proof, not
 * necessarily the shortest win. If the line cannot be finished in time, the remaining live cells
 * (an upper bound on the remaining moves, parity-adjusted) complete it.
 */
import type { SolveContext, SolveResult } from '../types.js';
import { WIN_SCORE } from '../../search/score.js';
import { MAX_CELLS } from './geometry.js';
import { type HadronPosition, PROFILE_SEED } from './position.js';
import { HadronSolver } from './solver.js';

/** Node budget when the caller gives no deadline (fixed-depth analysis). */
const UNTIMED_NODE_LIMIT = 100_000;
/** Live cells above which an untimed solve is not attempted (a proof would rarely fit the budget). */
const UNTIMED_LIVE_LIMIT = 26;
/**
 * Live cells above which a solve is not attempted, by available milliseconds (measured on 9x9
 * games: proofs from about 30 live cells take around a second on one core).
 */
const LIVE_LIMITS: readonly (readonly [number, number])[] = [
  [50, 26],
  [250, 32],
  [1000, 38],
  [4000, 44],
  [Infinity, 52],
];
/** Share of the solve budget kept for playing out the proven line. */
const LINE_SHARE = 0.25;

let shared: HadronSolver | null = null;

/** The worker's solver (one per thread: its tables are big and reused across requests). */
export function sharedSolver(): HadronSolver {
  if (shared === null) shared = new HadronSolver();
  return shared;
}

export function liveLimitFor(milliseconds: number): number {
  for (const [ms, live] of LIVE_LIMITS) if (milliseconds <= ms) return live;
  return LIVE_LIMITS[LIVE_LIMITS.length - 1][1];
}

export function solveHadron(pos: HadronPosition, ctx: SolveContext): SolveResult | null {
  if (pos.profile === PROFILE_SEED || pos.playableCount === 0) return null;
  const solver = sharedSolver();
  solver.trimCaches();
  solver.load(pos.rows, pos.cols, pos.cells, pos.side);
  const untimed = ctx.deadline === Infinity;
  const budget = untimed ? Infinity : ctx.deadline - Date.now();
  if (!untimed && budget <= 0) return null;
  const live = solver.liveCount();
  if (live > (untimed ? UNTIMED_LIVE_LIMIT : liveLimitFor(budget))) return null;
  const start = Date.now();
  const proveDeadline = untimed ? Infinity : start + budget * (1 - LINE_SHARE);
  const stop = () => Date.now() >= proveDeadline || ctx.shouldStop();
  const limits = untimed ? { shouldStop: ctx.shouldStop, nodeLimit: UNTIMED_NODE_LIMIT } : { shouldStop: stop };

  const verdict = solver.solveLoaded(limits);
  let nodes = solver.nodes;
  if (verdict === null) return null;
  let winning = verdict ? solver.rootMove : -1;
  const moves = new Int32Array(MAX_CELLS);
  const count = solver.playableCells(moves);
  let hardest = moves[0];
  let hardestNodes = -1;
  // Move by move when the win lies in a valued region (no cell named) or, on a loss, to offer the
  // move whose refutation takes the most work. The whole-board proof has warmed the tables.
  if (winning < 0) {
    for (let i = 0; i < count; i++) {
      const result = solver.moveWins(moves[i], limits);
      nodes += solver.nodes;
      if (result === null) return null;
      if (result) {
        winning = moves[i];
        break;
      }
      if (solver.nodes > hardestNodes) {
        hardestNodes = solver.nodes;
        hardest = moves[i];
      }
    }
  }
  // A proven win whose move could not be named in time: let the search answer.
  if (verdict && winning < 0) return null;
  const wins = winning >= 0;
  const move = wins ? winning : hardest;
  const line = provenLine(solver, move, wins, ctx, limits.nodeLimit);
  const plies = line.plies;
  return {
    move,
    score: wins ? WIN_SCORE - plies : -(WIN_SCORE - plies),
    pv: line.pv,
    nodes: nodes + line.nodes,
    depth: plies,
  };
}

/**
 * Plays `first` then alternates proven moves until the game ends. The side that moves after
 * `first` loses iff `firstWins`.
 */
function provenLine(
  solver: HadronSolver,
  first: number,
  firstWins: boolean,
  ctx: SolveContext,
  nodeLimit: number | undefined,
): { pv: number[]; plies: number; nodes: number } {
  const pv = [first];
  let nodes = 0;
  solver.play(first);
  const moves = new Int32Array(MAX_CELLS);
  // winnerToMove: is the side to move now the proven winner?
  let winnerToMove = !firstWins;
  let finished = false;
  const limits = { shouldStop: ctx.shouldStop, nodeLimit: nodeLimit ?? Infinity };
  for (;;) {
    const count = solver.playableCells(moves);
    if (count === 0) {
      finished = true;
      break;
    }
    let next = -1;
    if (winnerToMove) {
      const verdict = solver.solveLoaded(limits);
      nodes += solver.nodes;
      if (verdict !== true) break;
      next = solver.rootMove;
      for (let i = 0; i < count && next < 0; i++) {
        const result = solver.moveWins(moves[i], limits);
        nodes += solver.nodes;
        if (result === null) break;
        if (result) next = moves[i];
      }
      if (next < 0) break;
    } else {
      next = moves[0];
    }
    solver.play(next);
    pv.push(next);
    winnerToMove = !winnerToMove;
  }
  let plies = pv.length;
  if (!finished) {
    // Upper bound: every remaining live cell played; the winner moves last, so fix the parity.
    plies += solver.liveCount();
    if ((plies % 2 === 1) !== firstWins) plies++;
  }
  for (let i = pv.length - 1; i >= 0; i--) solver.undo(pv[i]);
  return { pv, plies, nodes };
}
