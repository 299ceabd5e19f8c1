/**
 * engine.solve for the (M,N,K)-game: what can be proven before the generic search runs.
 *  1. an immediate win (a K-1 window of the mover), or a proven loss (two enemy K-1 cells);
 *  2. small boards / late positions: the exact solver (win, loss or draw, with distance);
 *  3. threat-space search: shortest forced win up to EXACT_DEPTH own moves (5 plies), then
 *     continuous-four sequences (VCF);
 *  4. root defence: replies after which the opponent still wins by threats are removed from the
 *     search's root list, and a position where every reply provably loses is returned as a loss;
 *  5. deeper threat sequences, in a capped slice of the time (their distance is that of the line
 *     found: an upper bound on the shortest win).
 * Anything else (including forced blocks, which the search's move list already reduces to the
 * blocking cells) is left to the alpha-beta search. Every returned result is proven.
 *
 * For K = 5 with the pattern fast path (patterns.ts), a VCF on the line patterns (vcf.ts) runs
 * between steps 1 and 2, and the pattern VCT (vct.ts) with its root defence against the opponent's
 * VCF / VCT (solveByPatternThreats) takes the place of step 5, under both rules: their wins are
 * proven under exactly five too, since the pattern tables know the rule.
 *
 * Under exactK (only exactly K wins) steps 2-5 are skipped: the exact solver and the threat-space
 * search count a filled K-window as a win, which an overline is not. Step 1 stays, its wins and
 * blocks verified cell by cell (moves.ts winningCell / writeBlockingCells); with K = 5 the pattern
 * VCF, VCT and root defence take the place of steps 3-5.
 */
import type { SolveContext, SolveResult } from '../types.js';
import { NOT_TERMINAL, WIN_SCORE } from '../../search/score.js';
import type { MnkPosition } from './position.js';
import { centreCell, firstEmpty, winningCell, writeBlockingCells } from './moves.js';
import { ExactSolver } from './exact.js';
import { EXACT_DEPTH, ThreatSearch } from './threats.js';
import { VcfSolver } from './vcf.js';
import { VctSolver } from './vct.js';
import { patternHint } from './pattern-search.js';

/** Positions with at most this many empty cells go to the exact solver first. */
export const EXACT_EMPTIES = 25;
const VCF_DEPTH = 24;
const DEEP_THREAT_DEPTH = 8;
/**
 * Node budgets: the solver must also end when no deadline is given (fixed-depth arena games).
 * About 1-4 s of work each on a development machine.
 */
const EXACT_NODE_LIMIT = 4_000_000;
const THREAT_NODE_LIMIT = 400_000;
const DEEP_THREAT_NODE_LIMIT = 40_000;
const DEEP_THREAT_TIME_SHARE = 0.35;

// One of each per worker thread: their tables are allocated once and reused.
const exactSolver = new ExactSolver();
const vcf = new VcfSolver();
/** Pattern VCF budgets (K = 5): the root's own chain, and each check of the root defence. */
const ROOT_VCF_NODES = 200_000;
const DEFENCE_VCF_NODES = 20_000;
/**
 * Pattern VCT (K = 5): depth in own moves; node budgets of the root's own search (which also gets at
 * most VCT_TIME_SHARE of the solver's time), of the opponent's threat against a pass, and of each
 * check of the root defence.
 */
const vct = new VctSolver();
const VCT_DEPTH = 12;
const ROOT_VCT_NODES = 100_000;
const VCT_TIME_SHARE = 0.4;
const VCT_TIME_SHARE_UNDER_THREAT = 0.15;
const PASS_VCT_NODES = 40_000;
const DEFENCE_VCT_NODES = 10_000;
/** The root defence tries at most this many replies, in at most this share of the solver's time left. */
const DEFENCE_REPLIES = 12;
const DEFENCE_TIME_SHARE = 0.6;
/** The opponent's threat against a pass gets at most this share of the solver's time left. */
const PASS_TIME_SHARE = 0.3;
const threatSearch = new ThreatSearch();
const scratch = new Int32Array(8);
let replies = new Int32Array(0);
let candidates = new Int32Array(0);
/** Node budget of each threat check in the root defence. */
const DEFENCE_NODE_LIMIT = 20_000;

export function solveMnk(pos: MnkPosition, ctx: SolveContext): SolveResult | null {
  if (!pos.profile.useSolver || pos.terminal() !== NOT_TERMINAL) return null;
  // The threat searches make and unmake moves as the search does: on the board's WebAssembly kernel.
  pos.patterns?.attachKernel();
  // The solver reads the window counts and threat sets (the search on the pattern path does not).
  pos.useWindows();
  let result: SolveResult | null;
  try {
    result = solveWithWindows(pos, ctx);
  } finally {
    pos.releaseWindows();
  }
  // The pattern threat searches run with the window state lazy again (cheaper moves).
  if (result !== null || pos.patterns === null || ctx.shouldStop()) return result;
  return solveByPatternThreats(pos, ctx);
}

function solveWithWindows(pos: MnkPosition, ctx: SolveContext): SolveResult | null {
  const a = pos.side;
  if (pos.k === 1) return proven(centreOrFirst(pos), 1, 0);
  const win = winningCell(pos, a);
  if (win >= 0) return proven(win, 1, 0);
  const blocks = writeBlockingCells(pos, 1 - a, scratch, 0);
  if (blocks >= 2) return proven(scratch[0], -2, 0);
  if (replies.length < pos.cellCount + 1) {
    replies = new Int32Array(pos.cellCount + 1);
    candidates = new Int32Array(pos.cellCount + 1);
  }
  pos.setRootMoves(replies, 0);
  if (pos.patterns !== null) {
    pos.searchRootPly = pos.ply;
    const d = vcf.findWin(pos, VCF_DEPTH, ROOT_VCF_NODES, ctx);
    if (d > 0) return proven(vcf.pv[0], 2 * d - 1, vcf.nodes);
    if (ctx.shouldStop()) return null;
  }
  if (pos.exactK) return null;

  const empties = pos.cellCount - pos.stones;
  if (empties <= EXACT_EMPTIES) {
    const exact = exactSolver.solve(pos, ctx, EXACT_NODE_LIMIT);
    if (exact !== null) {
      // A root decided without search (nobody can complete a line any more) has no table move.
      const move = exact.move >= 0 && pos.cells[exact.move] === 0 ? exact.move : firstEmpty(pos);
      const result: SolveResult = {
        move,
        score: exact.score,
        pv: exact.pv.length > 0 && exact.pv[0] === move ? exact.pv : [move],
        nodes: exactSolver.nodes,
        depth: empties,
      };
      return exact.score === 0 ? { ...result, exactScore: 0 } : result;
    }
    if (ctx.shouldStop()) return null;
  }

  threatSearch.reset(pos, ctx);
  threatSearch.nodeLimit = THREAT_NODE_LIMIT;
  let d = threatSearch.findWin(EXACT_DEPTH);
  if (d === 0 && !threatSearch.stopped) d = threatSearch.findWin(VCF_DEPTH, true);
  if (d > 0) return proven(threatSearch.pv[0], 2 * d - 1, threatSearch.nodes);
  if (ctx.shouldStop()) return null;
  const defended = defendRoot(pos, ctx);
  if (defended !== null || ctx.shouldStop()) return defended;
  // K = 5 on the pattern board: the pattern VCT (solveByPatternThreats) takes the place of the deeper window search.
  if (pos.patterns !== null) return null;
  // Deeper threat sequences are rarely found and costly (defenders may answer anywhere): they get
  // a slice of the remaining time and a node budget, so the search keeps most of the move's time.
  const now = Date.now();
  const deepDeadline = now + Math.max(0, ctx.deadline - now) * DEEP_THREAT_TIME_SHARE;
  const deepStop = { shouldStop: (): boolean => Date.now() >= deepDeadline || ctx.shouldStop() };
  threatSearch.reset(pos, deepStop);
  threatSearch.nodeLimit = DEEP_THREAT_NODE_LIMIT;
  d = threatSearch.findWin(DEEP_THREAT_DEPTH);
  if (d > 0) return proven(threatSearch.pv[0], 2 * d - 1, threatSearch.nodes);
  return null;
}

/**
 * Defence at the root. If the opponent would win by threats were the mover to pass, each candidate
 * reply is tried and those after which the opponent still wins are removed from the search's root
 * list (pos.setRootMoves). Removing a proven-lost move is always sound. When the opponent's win
 * against a pass is exact (at most EXACT_DEPTH own moves) and every reply in its relevance zone
 * still loses exactly, the position is a proven loss: cells outside the zone are no better than a
 * pass (threats.ts), so the reply that lasts longest is returned with its distance.
 */
function defendRoot(pos: MnkPosition, ctx: SolveContext): SolveResult | null {
  pos.setRootMoves(replies, 0);
  pos.makeNullMove();
  threatSearch.reset(pos, ctx);
  threatSearch.nodeLimit = DEFENCE_NODE_LIMIT;
  let passDepth = threatSearch.findWin(EXACT_DEPTH);
  const passExact = passDepth > 0;
  if (passDepth === 0 && !threatSearch.stopped) passDepth = threatSearch.findWin(VCF_DEPTH, true);
  // Zone of the opponent's threats (stones outside it are passes within its horizon).
  const zoneThreshold = pos.k - (passExact ? passDepth : EXACT_DEPTH);
  const zone = passDepth > 0 ? threatSearch.zoneCells(pos, zoneThreshold, replies) : 0;
  pos.unmakeNullMove();
  if (passDepth === 0) return null;

  // Candidates: the zone plus the search's own list (deduplicated through a stamp).
  let count = zone;
  const searchCount = pos.generateSearchMoves(candidates, 0);
  const seen = pos.scanStamp;
  const mark = ++pos.scanCounter;
  for (let i = 0; i < count; i++) seen[replies[i]] = mark;
  for (let i = 0; i < searchCount; i++) {
    if (seen[candidates[i]] !== mark) {
      seen[candidates[i]] = mark;
      replies[count++] = candidates[i];
    }
  }

  let safe = 0;
  let allExact = passExact;
  let longest = -1;
  let longestDepth = 0;
  let nodes = 0;
  let checked = 0;
  for (; checked < count; checked++) {
    const move = replies[checked];
    pos.makeMove(move);
    threatSearch.reset(pos, ctx);
    threatSearch.nodeLimit = DEFENCE_NODE_LIMIT;
    let d = threatSearch.findWin(EXACT_DEPTH);
    const exact = d > 0;
    if (d === 0 && !threatSearch.stopped) d = threatSearch.findWin(VCF_DEPTH, true);
    const stopped = threatSearch.stopped;
    nodes += threatSearch.nodes;
    pos.unmakeMove(move);
    if (stopped && ctx.shouldStop()) break;
    if (d === 0) {
      // Not refuted (or not provably): keep it, in place.
      replies[safe++] = move;
      allExact = false;
      continue;
    }
    if (!exact) allExact = false;
    if (d > longestDepth) {
      longestDepth = d;
      longest = move;
    }
  }
  // Moves left unchecked when time ran out stay in the list.
  for (let i = checked; i < count; i++) replies[safe++] = replies[i];
  if (safe > 0) {
    if (safe < count) pos.setRootMoves(replies, safe);
    return null;
  }
  // Cells outside the zone lose exactly like a pass (in passDepth opponent moves), so the longest
  // tried reply is the best one when it lasts at least that long.
  if (allExact && checked === count && longestDepth >= passDepth) return proven(longest, -2 * longestDepth, nodes);
  // Everything loses, but not provably at that distance: let the search pick among them.
  return null;
}

/**
 * K = 5, on the pattern board, after the steps above found nothing. Freestyle: the mover's VCT
 * (threes as well as fours, vct.ts: a proven win) only; the window solver's root defence stands (a
 * pattern defence there measured no better: docs/gomoku-strength.md). Exactly five: the opponent's
 * threat against a pass (VCF, then VCT), the mover's own VCT, then, when the opponent has a threat,
 * the root defence. The best hinted replies of the root list (the
 * search's own, or what defendRoot left), at most DEFENCE_REPLIES of them and within a share of the
 * time, are tried: those after which the opponent wins by a VCF or VCT are proven lost and removed.
 * Replies whose check ran out of budget, and replies not tried, stay. When every reply is refuted,
 * those refuted by the longest threat sequence are kept (the replies searched are not every legal
 * move, so that is no proven loss).
 */
function solveByPatternThreats(pos: MnkPosition, ctx: SolveContext): SolveResult | null {
  if (!pos.exactK) {
    // Freestyle: the window solver's root defence stands; the pattern VCT only looks for a win.
    const attackDeadline = Date.now() + Math.max(0, ctx.deadline - Date.now()) * VCT_TIME_SHARE;
    const attackStop = { shouldStop: (): boolean => Date.now() >= attackDeadline || ctx.shouldStop() };
    const won = vct.findWin(pos, VCT_DEPTH, ROOT_VCT_NODES, attackStop);
    return won > 0 ? proven(vct.pv[0], 2 * won - 1, vct.nodes) : null;
  }
  const passDeadline = Date.now() + Math.max(0, ctx.deadline - Date.now()) * PASS_TIME_SHARE;
  const passStop = { shouldStop: (): boolean => Date.now() >= passDeadline || ctx.shouldStop() };
  pos.makeNullMove();
  let threat = vcf.findWin(pos, VCF_DEPTH, DEFENCE_VCF_NODES, passStop);
  if (threat === 0 && !passStop.shouldStop()) threat = vct.findWin(pos, VCT_DEPTH, PASS_VCT_NODES, passStop);
  pos.unmakeNullMove();
  if (ctx.shouldStop()) return null;

  // Under a threat the defence needs the time: the own VCT gets a smaller slice.
  const start = Date.now();
  const share = threat > 0 ? VCT_TIME_SHARE_UNDER_THREAT : VCT_TIME_SHARE;
  const attackDeadline = start + Math.max(0, ctx.deadline - start) * share;
  const attackStop = { shouldStop: (): boolean => Date.now() >= attackDeadline || ctx.shouldStop() };
  const d = vct.findWin(pos, VCT_DEPTH, ROOT_VCT_NODES, attackStop);
  if (d > 0) return proven(vct.pv[0], 2 * d - 1, vct.nodes);
  if (threat === 0 || ctx.shouldStop()) return null;

  const now = Date.now();
  const defenceDeadline = now + Math.max(0, ctx.deadline - now) * DEFENCE_TIME_SHARE;
  const defenceStop = { shouldStop: (): boolean => Date.now() >= defenceDeadline || ctx.shouldStop() };
  const count = pos.generateSearchMoves(replies, 0);
  for (let i = 0; i < count; i++) candidates[i] = patternHint(pos, replies[i]);
  const tries = Math.min(count, DEFENCE_REPLIES);
  let refuted = 0;
  let checked = 0;
  let longest = 0;
  for (; checked < tries && !defenceStop.shouldStop(); checked++) {
    // Best hinted first: the replies that touch the threats are tried before time runs out.
    let best = checked;
    for (let j = checked + 1; j < count; j++) if (candidates[j] > candidates[best]) best = j;
    const move = replies[best];
    replies[best] = replies[checked];
    candidates[best] = candidates[checked];
    replies[checked] = move;
    pos.makeMove(move);
    let depth = vcf.findWin(pos, VCF_DEPTH, DEFENCE_VCF_NODES, defenceStop);
    if (depth === 0 && !defenceStop.shouldStop()) depth = vct.findWin(pos, VCT_DEPTH, DEFENCE_VCT_NODES, defenceStop);
    pos.unmakeMove(move);
    // candidates[i] now holds the length of the refutation of replies[i] (0: none found).
    candidates[checked] = depth;
    if (depth > 0) {
      refuted++;
      if (depth > longest) longest = depth;
    }
  }
  if (refuted === 0) return null;
  let kept = 0;
  if (refuted < count) {
    for (let i = 0; i < count; i++) if (i >= checked || candidates[i] === 0) replies[kept++] = replies[i];
  } else {
    for (let i = 0; i < count; i++) if (candidates[i] === longest) replies[kept++] = replies[i];
  }
  pos.setRootMoves(replies, kept);
  return null;
}

/** A proven result: plies > 0 is a win in that many plies, plies < 0 a loss in -plies. */
function proven(move: number, plies: number, nodes: number): SolveResult {
  const score = plies > 0 ? WIN_SCORE - plies : -(WIN_SCORE + plies);
  return { move, score, pv: [move], nodes, depth: Math.abs(plies) };
}

function centreOrFirst(pos: MnkPosition): number {
  const centre = centreCell(pos);
  return pos.cells[centre] === 0 ? centre : firstEmpty(pos);
}
