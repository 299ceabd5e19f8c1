/**
 * Game-agnostic negamax alpha-beta with principal-variation search, iterative deepening, a
 * transposition table, killer and history move ordering, late-move reductions and distance-to-end
 * scoring of proven results, and (for games that opt in through SearchPosition.probCut) Multi-ProbCut.
 *
 * All per-node storage is preallocated: one move buffer sliced by ply (offsets), ordering scores
 * beside it, a triangular PV table. Nothing is allocated inside negamax.
 */
import { TACTICAL_HINT, type SearchPosition, type SelectiveSearch, type SubtreeHost, type SubtreeSearch } from '../games/types.js';
import { Random } from '../core/random.js';
import {
  DRAW_SCORE,
  EVAL_LIMIT,
  INFINITE_SCORE,
  MAX_PLY,
  NOT_TERMINAL,
  RESULT_DRAW,
  RESULT_WIN,
  WIN_SCORE,
  isProven,
} from './score.js';
import { BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, TranspositionTable, saltHi, saltLo } from './tt.js';
import { IterationClock, type TimePolicy } from './timeman.js';
import { pickBest } from './pick.js';

export type StopReason = 'time' | 'depth' | 'proven' | 'onlyMove' | 'cancelled';

/** One root move's line: its score searched to the iteration's depth with a full window. */
export interface SearchLine {
  move: number;
  /** Internal score for the side to move at the root. */
  score: number;
  /** Starts with `move`. */
  pv: number[];
  /** True when `score` is a proven game result (win, loss or draw). */
  exact: boolean;
  /** Exact final value on the game's client scale, when a solver proved one (Othello disc differential). */
  exactScore?: number;
}

/** What a search reports after each completed iteration (never per node). */
export interface IterationInfo {
  depth: number;
  /** Best first; as many as multiPv asks for (fewer when fewer root moves). */
  lines: SearchLine[];
  nodes: number;
  elapsedMs: number;
}

export interface SearchLimits {
  /** Deepest iteration (plies); defaults to MAX_PLY - 1. */
  maxDepth?: number;
  /** Wall-clock deadline on the Date.now() scale. */
  deadline?: number;
  /** Polled every few hundred nodes; true stops the search (client gone). */
  shouldStop?: () => boolean;
  /** Stop after about this many nodes. */
  nodeLimit?: number;
  /** Breaks ties between equally good root moves reproducibly. */
  seed?: number;
  /**
   * Root lines with exact scores (default 1). Each of the best `multiPv` root moves is searched to
   * the iteration's depth with a window open above the worst line kept, so its score is exact (true
   * multi-PV, like Stockfish's MultiPV); the other moves are only shown not to beat them.
   */
  multiPv?: number;
  /** The only root moves to search (illegal codes are ignored); undefined: the game's own list. */
  rootMoves?: readonly number[];
  /** Called after each completed iteration, with the lines of that iteration. */
  onIteration?: (info: IterationInfo) => void;
  /** When the budget started (a request's arrival, queue wait included); defaults to the search's start. */
  budgetStart?: number;
  /** Which rule decides whether to start another iteration (src/search/timeman.ts); default 'adaptive'. */
  timePolicy?: TimePolicy;
  /** First iteration's depth (default 1): Lazy SMP helper threads start some at 2 so the threads' depths differ. */
  startDepth?: number;
}

export interface SearchResult {
  /** Best move of the deepest completed iteration; -1 when the side to move has no move. */
  move: number;
  /** Internal score for the side to move. */
  score: number;
  pv: number[];
  /** Deepest completed iteration (0 when none completed). */
  depth: number;
  nodes: number;
  stopReason: StopReason;
  /** True when `score` is a proven game result (win, loss or draw). */
  exact: boolean;
  /** Best first; lines[0] agrees with move, score, pv and exact. Empty when there is no move. */
  lines: SearchLine[];
}

/** Most lines a multi-PV search keeps. */
export const MAX_MULTI_PV = 256;

/**
 * Root moves of a search that is filtered or asks for several lines: the given moves that are legal
 * (in their order, once each), or the game's search moves topped up with other legal moves, best
 * hinted first, until there are `multiPv` of them (a game's narrowed list, such as forced replies,
 * would otherwise hide the lines a client asked for).
 */
export function rootMoveList(pos: SearchPosition, multiPv: number, rootMoves?: readonly number[]): number[] {
  const buffer = new Int32Array(2 * pos.maxMoves);
  const legalCount = pos.generateMoves(buffer, 0);
  const legal = new Set(buffer.subarray(0, legalCount));
  if (rootMoves !== undefined) return [...new Set(rootMoves)].filter((move) => legal.has(move));
  if (typeof pos.generateSearchMoves !== 'function') return [...legal];
  const searchCount = pos.generateSearchMoves(buffer, 0);
  const list = [...new Set(buffer.subarray(0, searchCount))];
  if (list.length >= multiPv) return list;
  const inList = new Set(list);
  const extra = [...legal].filter((move) => !inList.has(move));
  const hint = typeof pos.moveOrderScore === 'function' ? (move: number) => pos.moveOrderScore!(move) : () => 0;
  extra.sort((a, b) => hint(b) - hint(a));
  return list.concat(extra.slice(0, multiPv - list.length));
}

const CHECK_INTERVAL_MASK = 127;
/**
 * A search against a deadline (and no node limit) looks at the clock every 16 nodes: nearly every timed
 * search now ends at its deadline, and a Tablut or Hadron node can take 100 us and more.
 */
const TIMED_CHECK_MASK = 15;
const TT_MOVE_BONUS = 1 << 30;
/** Iterations from this depth on search inside an aspiration window (when the selective search sets one). */
const ASPIRATION_MIN_DEPTH = 5;
/** Static evaluation not computed at a ply (selective search). */
const NO_EVAL = -0x7fffffff;
/** Reverse futility pruning returns only evaluations inside this bound (not those that stand for a decided position). */
const FUTILITY_EVAL_CAP = 100_000;
/** Move-count pruning: quiet moves tried at a node of depth d (an improving one; half as many otherwise), after Rapfi's 3 + d^1.32. */
export const MOVE_COUNTS = Int32Array.from({ length: 16 }, (_, d) => (d === 0 ? 0 : Math.round(3 + Math.pow(d, 1.32))));
/**
 * ln(depth) x ln(move number) in plies (SelectiveSearch.logReductionRelief), depths and move numbers to 63: rounded to a
 * quarter ply, then to the nearest ply, halves up (ln 8 x ln 2 = 1.44 -> 1.5 -> 2), as measured.
 */
export const LOG_REDUCTIONS = Int32Array.from({ length: 64 * 64 }, (_, at) => {
  const depth = at >> 6;
  const move = at & 63;
  return depth === 0 || move === 0 ? 0 : (Math.round(4 * Math.log(depth) * Math.log(move)) + 2) >> 2;
});
/** Single-reply extensions stop this many plies from the root. */
const EXTENSION_MAX_PLY = 40;
/** probCut()'s answer when it does not cut (outside every score). */
const NO_CUT = -(1 << 30);
const KILLER_BONUS_1 = 1 << 29;
const KILLER_BONUS_2 = (1 << 29) - 1;
const HISTORY_LIMIT = 1 << 20;
const HINT_WEIGHT = 4;
/** Moves ordered at or above this (TT move, killers, hints >= TACTICAL_HINT) are not reduced (less, with SelectiveSearch.logReductionRelief). */
const TACTICAL_ORDER_SCORE = TACTICAL_HINT * HINT_WEIGHT;

/**
 * SelectiveSearch.logReductionRelief's reduction of the move at index i (0-based) of a node of this depth: Rapfi's base
 * ln(depth) x ln(move number) (LOG_REDUCTIONS), one ply more where the evaluation is not improving (or was not taken: a threat is
 * pending), `relief` plies less for a tactical move and at a PV node; the child keeps at least one ply.
 */
export function logReduction(depth: number, i: number, relief: number, pvNode: boolean, improving: boolean, tactical: boolean): number {
  if (depth < 2) return 0;
  let r = LOG_REDUCTIONS[(depth > 63 ? 63 : depth) * 64 + (i >= 63 ? 63 : i + 1)];
  if (!improving && r > 1) r++;
  if (tactical) r -= relief;
  if (pvNode) r -= relief;
  if (r > depth - 2) r = depth - 2;
  return r > 0 ? r : 0;
}

export class Searcher implements SubtreeHost {
  readonly tt: TranspositionTable;
  nodes = 0;

  private moves = new Int32Array(0);
  private orderScores = new Int32Array(0);
  private readonly ownKillers = new Int32Array(MAX_PLY * 2);
  private ownHistory = new Int32Array(0);
  private readonly ownPvTable = new Int32Array(MAX_PLY * MAX_PLY);
  private readonly ownPvLength = new Int32Array(MAX_PLY + 1);
  /** Static evaluation at each ply of the current line where it was computed (NO_EVAL elsewhere). */
  private readonly ownEvalAtPly = new Int32Array(MAX_PLY + 2).fill(NO_EVAL);
  private evalAtPly: Int32Array = this.ownEvalAtPly;
  /** The tables in use: this searcher's own, or a subtree search's (the same roles, in its memory). */
  private killers: Int32Array = this.ownKillers;
  private history: Int32Array = this.ownHistory;
  private pvTable: Int32Array = this.ownPvTable;
  private pvLength: Int32Array = this.ownPvLength;
  /** The position's compiled subtree search, when it has one: every node below the root runs in it. */
  private subtree: SubtreeSearch | null = null;
  /** The table this search uses: tt, or the subtree search's copy of it in its own memory. */
  private table: TranspositionTable;

  private pos!: SearchPosition;
  /** XORed into every TT key: the position's game and shape (the table outlives one request). */
  private keyLo = 0;
  private keyHi = 0;
  private moveSpace = 0;
  private useSearchMoves = false;
  private useOrderHint = false;
  private useProbCut = false;
  /** The game's selective search (futility and move-count pruning, root reductions, single-reply extensions), or none. */
  private selective: SelectiveSearch | null = null;
  /** The position's answer to probCut(): slope, intercept, margin. */
  private readonly probCutOut = new Float64Array(3);
  /** ProbCut probes that cut (a statistic for tools and tests). */
  probCuts = 0;
  /** Root searches repeated with a wider aspiration window (a statistic for tools and tests). */
  aspirationResearches = 0;
  private deadline = Infinity;
  private nodeLimit = Infinity;
  private shouldStop: (() => boolean) | undefined;
  private checkMask = CHECK_INTERVAL_MASK;
  private stopped = false;
  private cancelled = false;
  /** Leaves scored by the heuristic (or by TT entries that were): 0 over an iteration = exact result. */
  private heuristicLeaves = 0;

  constructor(tt: TranspositionTable) {
    this.tt = tt;
    this.table = tt;
  }

  search(pos: SearchPosition, limits: SearchLimits = {}): SearchResult {
    const started = Date.now();
    this.prepare(pos, limits);
    const maxDepth = Math.max(1, Math.min(limits.maxDepth ?? MAX_PLY - 1, MAX_PLY - 1));
    const multiPv = Math.max(1, Math.min(Math.floor(limits.multiPv ?? 1), MAX_MULTI_PV));
    const filtered = limits.rootMoves !== undefined;
    const onIteration = limits.onIteration;

    const rootStatus = pos.terminal();
    if (rootStatus !== NOT_TERMINAL) {
      const score = rootStatus === RESULT_DRAW ? DRAW_SCORE : rootStatus === RESULT_WIN ? WIN_SCORE : -WIN_SCORE;
      return { move: -1, score, pv: [], depth: 0, nodes: 0, stopReason: 'proven', exact: true, lines: [] };
    }
    let rootCount: number;
    if (multiPv === 1 && !filtered) {
      rootCount = this.generate(0);
    } else {
      const list = rootMoveList(pos, multiPv, limits.rootMoves);
      this.moves.set(list, 0);
      rootCount = list.length;
      if (rootCount === 0 && filtered) {
        return { move: -1, score: 0, pv: [], depth: 0, nodes: 0, stopReason: 'depth', exact: false, lines: [] };
      }
    }
    if (rootCount === 0) {
      return { move: -1, score: -WIN_SCORE, pv: [], depth: 0, nodes: 0, stopReason: 'proven', exact: true, lines: [] };
    }
    this.orderRoot(rootCount, limits.seed);
    const wanted = Math.min(multiPv, rootCount);

    let bestMove = this.moves[0];
    let bestScore = 0;
    let bestPv: number[] = [bestMove];
    let lines: SearchLine[] = [];
    let completedDepth = 0;
    let exact = false;
    let stopReason: StopReason = 'depth';
    // Whether to start another iteration: src/search/timeman.ts (no deadline: never asked).
    const policy = limits.timePolicy ?? 'adaptive';
    const clock = this.deadline === Infinity ? undefined : new IterationClock(limits.budgetStart ?? started, started, this.deadline, policy, wanted === 1);

    for (let depth = Math.max(1, Math.min(limits.startDepth ?? 1, maxDepth)); depth <= maxDepth; depth++) {
      this.heuristicLeaves = 0;
      if (wanted > 1) {
        const found = this.searchRootLines(depth, rootCount, wanted);
        if (this.stopped) {
          // Lines of different depths are not comparable: keep the last completed iteration's.
          stopReason = this.cancelled ? 'cancelled' : 'time';
          break;
        }
        lines = found;
        bestMove = lines[0].move;
        bestScore = lines[0].score;
        bestPv = lines[0].pv;
        exact = lines.every((line) => line.exact);
      } else {
        const score = this.searchRootAspirated(depth, rootCount, completedDepth > 0 ? bestScore : 0, completedDepth > 0);
        if (this.stopped) {
          // A partial iteration still counts when its first (previous best) move was fully searched
          // and another move beat it.
          if (this.partialBest >= 0 && this.partialBest !== bestMove) {
            bestMove = this.partialBest;
            bestScore = this.partialScore;
            bestPv = this.readPv();
          }
          stopReason = this.cancelled ? 'cancelled' : 'time';
          break;
        }
        bestMove = this.moves[0];
        bestScore = score;
        bestPv = this.readPv();
        exact = isProven(score) || this.heuristicLeaves === 0;
        if (onIteration !== undefined) lines = [{ move: bestMove, score: bestScore, pv: bestPv, exact }];
      }
      completedDepth = depth;
      onIteration?.({ depth, lines: lines.map(copyLine), nodes: this.nodes, elapsedMs: Date.now() - started });
      if (rootCount === 1 && !filtered) {
        stopReason = 'onlyMove';
        break;
      }
      if (exact) {
        stopReason = 'proven';
        break;
      }
      if (depth < maxDepth && clock !== undefined && !clock.completed(depth, this.nodes, bestMove, bestScore, Date.now()).next) {
        stopReason = 'time';
        break;
      }
    }
    if (wanted === 1 || lines.length === 0) lines = [{ move: bestMove, score: bestScore, pv: bestPv, exact }];
    return { move: bestMove, score: bestScore, pv: bestPv, depth: completedDepth, nodes: this.nodes, stopReason, exact, lines };
  }

  private partialBest = -1;
  private partialScore = 0;

  private prepare(pos: SearchPosition, limits: SearchLimits): void {
    this.pos = pos;
    this.keyLo = saltLo(pos.keySalt ?? 0);
    this.keyHi = pos.keySalt === undefined ? 0 : saltHi(pos.keySalt);
    this.nodes = 0;
    this.stopped = false;
    this.cancelled = false;
    this.deadline = limits.deadline ?? Infinity;
    this.nodeLimit = limits.nodeLimit ?? Infinity;
    this.checkMask = limits.deadline !== undefined && limits.nodeLimit === undefined ? TIMED_CHECK_MASK : CHECK_INTERVAL_MASK;
    this.shouldStop = limits.shouldStop;
    this.useSearchMoves = typeof pos.generateSearchMoves === 'function';
    this.useOrderHint = typeof pos.moveOrderScore === 'function';
    this.useProbCut = typeof pos.probCut === 'function';
    this.selective = this.useOrderHint && typeof pos.quietForPruning === 'function' ? (pos.selectiveSearch ?? null) : null;
    this.probCuts = 0;
    this.aspirationResearches = 0;
    const bufferSize = (MAX_PLY + 1) * pos.maxMoves;
    if (this.moves.length < bufferSize) {
      this.moves = new Int32Array(bufferSize);
      this.orderScores = new Int32Array(bufferSize);
    }
    this.moveSpace = pos.moveSpace;
    const subtree = typeof pos.subtreeSearch === 'function' ? pos.subtreeSearch() : null;
    this.subtree = subtree !== null && subtree.history.length === 2 * pos.moveSpace ? subtree : null;
    this.table = this.subtree === null ? this.tt : this.subtree.bindTable(this.tt);
    if (this.subtree !== null) {
      this.killers = this.subtree.killers;
      this.history = this.subtree.history;
      this.pvTable = this.subtree.pvTable;
      this.pvLength = this.subtree.pvLength;
      this.evalAtPly = this.subtree.evalAtPly ?? this.ownEvalAtPly;
    } else {
      this.evalAtPly = this.ownEvalAtPly;
      if (this.ownHistory.length !== 2 * pos.moveSpace) this.ownHistory = new Int32Array(2 * pos.moveSpace);
      this.killers = this.ownKillers;
      this.history = this.ownHistory;
      this.pvTable = this.ownPvTable;
      this.pvLength = this.ownPvLength;
    }
    this.history.fill(0);
    this.killers.fill(-1);
    this.evalAtPly.fill(NO_EVAL);
    this.table.newSearch();
  }

  private generate(offset: number): number {
    return this.useSearchMoves
      ? this.pos.generateSearchMoves!(this.moves, offset)
      : this.pos.generateMoves(this.moves, offset);
  }

  /** First iteration order: the game's hint, then a seeded jitter so equal moves vary by seed only. */
  private orderRoot(count: number, seed: number | undefined): void {
    const slot = this.table.probe(this.pos.hashLo ^ this.keyLo, this.pos.hashHi ^ this.keyHi);
    const ttMove = slot >= 0 ? this.table.move(slot) : -1;
    const rng = seed === undefined ? null : new Random(seed);
    for (let i = 0; i < count; i++) {
      const move = this.moves[i];
      let s = this.useOrderHint ? this.pos.moveOrderScore!(move) * 16 : 0;
      if (rng) s += rng.below(16);
      if (move === ttMove) s = TT_MOVE_BONUS;
      this.orderScores[i] = s;
    }
    // Insertion sort: root lists are short and this runs once.
    for (let i = 1; i < count; i++) {
      const m = this.moves[i];
      const s = this.orderScores[i];
      let j = i - 1;
      while (j >= 0 && this.orderScores[j] < s) {
        this.moves[j + 1] = this.moves[j];
        this.orderScores[j + 1] = this.orderScores[j];
        j--;
      }
      this.moves[j + 1] = m;
      this.orderScores[j + 1] = s;
    }
  }

  /**
   * The root inside an aspiration window around the last iteration's score (selective search with aspirationDelta):
   * a result outside it is searched again with that side of the window widened, by twice the step each time.
   */
  private searchRootAspirated(depth: number, count: number, previous: number, hasPrevious: boolean): number {
    const delta = this.selective?.aspirationDelta ?? 0;
    if (delta <= 0 || !hasPrevious || depth < ASPIRATION_MIN_DEPTH || Math.abs(previous) >= EVAL_LIMIT) {
      return this.searchRoot(depth, count, -INFINITE_SCORE, INFINITE_SCORE);
    }
    let step = delta;
    let alpha = previous - step;
    let beta = previous + step;
    for (;;) {
      const score = this.searchRoot(depth, count, alpha, beta);
      if (this.stopped) return score;
      if (score <= alpha && alpha > -INFINITE_SCORE) {
        this.aspirationResearches++;
        step *= 2;
        alpha = score - step <= -EVAL_LIMIT ? -INFINITE_SCORE : score - step;
      } else if (score >= beta && beta < INFINITE_SCORE) {
        this.aspirationResearches++;
        step *= 2;
        beta = score + step >= EVAL_LIMIT ? INFINITE_SCORE : score + step;
      } else {
        return score;
      }
    }
  }

  /**
   * Searches every root move inside (alpha, beta); leaves the best at moves[0] (the rest keep their order). A move
   * reaching beta ends the loop (the caller widens the window).
   */
  private searchRoot(depth: number, count: number, alpha: number, beta: number): number {
    const pos = this.pos;
    const alphaOrig = alpha;
    let best = -INFINITE_SCORE;
    let bestIndex = 0;
    this.partialBest = -1;
    this.pvLength[0] = 0;
    const childOffset = count;
    const hlStart = this.heuristicLeaves;
    const sel = this.selective;
    for (let i = 0; i < count; i++) {
      const move = this.moves[i];
      const reducible = sel !== null && depth >= 3 && i >= sel.rootReductionFrom && pos.moveOrderScore!(move) < TACTICAL_HINT;
      pos.makeMove(move);
      this.nodes++;
      let score: number;
      if (i === 0) {
        score = -this.negamax(depth - 1, -beta, -alpha, 1, childOffset);
      } else {
        // Late quiet root moves (selective search): a shallower null-window search first.
        const reduction = reducible ? (i >= sel.rootDoubleReductionFrom && depth >= 5 ? 2 : 1) : 0;
        score = -this.negamax(depth - 1 - reduction, -alpha - 1, -alpha, 1, childOffset);
        if (score > alpha && reduction > 0 && !this.stopped) score = -this.negamax(depth - 1, -alpha - 1, -alpha, 1, childOffset);
        if (score > alpha && !this.stopped) score = -this.negamax(depth - 1, -beta, -alpha, 1, childOffset);
      }
      pos.unmakeMove(move);
      if (this.stopped) break;
      if (score > best) {
        best = score;
        bestIndex = i;
        this.updatePv(0, move);
        if (score > alpha) alpha = score;
        // Below the window every move scores at most alpha: none is a better guess than the first.
        if (score > alphaOrig) {
          this.partialBest = move;
          this.partialScore = score;
        }
        if (score >= beta) break;
      }
    }
    if (!this.stopped && bestIndex > 0 && best > alphaOrig) {
      const move = this.moves[bestIndex];
      for (let j = bestIndex; j > 0; j--) this.moves[j] = this.moves[j - 1];
      this.moves[0] = move;
    }
    if (!this.stopped) {
      const bound = best >= beta ? BOUND_LOWER : best <= alphaOrig ? BOUND_UPPER : BOUND_EXACT;
      this.table.store(pos.hashLo ^ this.keyLo, pos.hashHi ^ this.keyHi, depth, bound, best, 0, this.moves[0], this.heuristicLeaves === hlStart);
    }
    return best;
  }

  /**
   * Multi-PV root: the first `wanted` moves get a full window; each later move a null window at the
   * worst kept line's score, and a re-search open above it when it beats it, so every kept score is
   * exact. Returns the kept lines best first (ties keep root order) and puts their moves first.
   */
  private searchRootLines(depth: number, count: number, wanted: number): SearchLine[] {
    const pos = this.pos;
    const lines: SearchLine[] = [];
    const childOffset = count;
    for (let i = 0; i < count; i++) {
      const move = this.moves[i];
      pos.makeMove(move);
      this.nodes++;
      let leavesBefore = this.heuristicLeaves;
      let score: number;
      let inWindow = true;
      if (lines.length < wanted) {
        score = -this.negamax(depth - 1, -INFINITE_SCORE, INFINITE_SCORE, 1, childOffset);
      } else {
        const floor = lines[wanted - 1].score;
        score = -this.negamax(depth - 1, -floor - 1, -floor, 1, childOffset);
        inWindow = false;
        if (score > floor && !this.stopped) {
          leavesBefore = this.heuristicLeaves;
          score = -this.negamax(depth - 1, -INFINITE_SCORE, -floor, 1, childOffset);
          inWindow = score > floor;
        }
      }
      pos.unmakeMove(move);
      if (this.stopped) return lines;
      if (!inWindow) continue;
      const pv = [move];
      for (let k = 1; k < this.pvLength[1]; k++) pv.push(this.pvTable[MAX_PLY + k]);
      const line = { move, score, pv, exact: isProven(score) || this.heuristicLeaves === leavesBefore };
      let at = lines.length;
      while (at > 0 && lines[at - 1].score < score) at--;
      lines.splice(at, 0, line);
      if (lines.length > wanted) lines.pop();
    }
    // Next iteration: the kept lines first, best first, then the other moves in their order.
    const kept = new Set(lines.map((line) => line.move));
    let at = lines.length;
    const rest: number[] = [];
    for (let i = 0; i < count; i++) if (!kept.has(this.moves[i])) rest.push(this.moves[i]);
    for (let i = 0; i < lines.length; i++) this.moves[i] = lines[i].move;
    for (const move of rest) this.moves[at++] = move;
    const best = lines[0];
    this.table.store(pos.hashLo ^ this.keyLo, pos.hashHi ^ this.keyHi, depth, BOUND_EXACT, best.score, 0, best.move, this.heuristicLeaves === 0);
    return lines;
  }

  private negamax(depth: number, alpha: number, beta: number, ply: number, offset: number): number {
    if (this.subtree !== null && (this.subtree.covers === undefined || this.subtree.covers(depth, ply))) return this.subtreeNegamax(depth, alpha, beta, ply);
    const pos = this.pos;
    this.pvLength[ply] = ply;
    if ((this.nodes & this.checkMask) === 0 && this.checkStop()) return 0;
    if (this.stopped) return 0;

    const status = pos.terminal();
    if (status !== NOT_TERMINAL) {
      if (status === RESULT_DRAW) return DRAW_SCORE;
      return status === RESULT_WIN ? WIN_SCORE - ply : -(WIN_SCORE - ply);
    }
    if (depth <= 0 || ply >= MAX_PLY - 1) {
      this.heuristicLeaves++;
      const value = pos.evaluate(alpha, beta);
      return value >= EVAL_LIMIT ? EVAL_LIMIT - 1 : value <= -EVAL_LIMIT ? -(EVAL_LIMIT - 1) : value;
    }

    // Mate-distance pruning: no result here can beat a win already found nearer the root.
    const matedScore = -(WIN_SCORE - ply);
    if (alpha < matedScore) alpha = matedScore;
    const mateScore = WIN_SCORE - ply - 1;
    if (beta > mateScore) beta = mateScore;
    if (alpha >= beta) return alpha;

    const tt = this.table;
    const hashLo = pos.hashLo ^ this.keyLo;
    const hashHi = pos.hashHi ^ this.keyHi;
    const alphaOrig = alpha;
    // No table cutoff at a PV node (as Stockfish): a cutoff there would end the principal variation at that node.
    const pvNode = beta - alpha > 1;
    const slot = tt.probe(hashLo, hashHi);
    let ttMove = -1;
    if (slot >= 0) {
      ttMove = tt.move(slot);
      const ttScore = tt.score(slot, ply);
      if (!pvNode && (tt.depth(slot) >= depth || (isProven(ttScore) && tt.bound(slot) === BOUND_EXACT))) {
        const bound = tt.bound(slot);
        if (
          bound === BOUND_EXACT ||
          (bound === BOUND_LOWER && ttScore >= beta) ||
          (bound === BOUND_UPPER && ttScore <= alpha)
        ) {
          if (!tt.exactSubtree(slot)) this.heuristicLeaves++;
          return ttScore;
        }
      }
    }

    const sel = this.selective;
    this.evalAtPly[ply] = NO_EVAL;
    if (sel !== null && pos.quietForPruning!()) {
      const staticEval = pos.evaluate(alpha, beta);
      this.evalAtPly[ply] = staticEval;
      // Reverse futility: far enough above beta that a shallow search would not bring it back.
      if (!pvNode && depth <= sel.futilityDepth && staticEval < FUTILITY_EVAL_CAP && staticEval > -FUTILITY_EVAL_CAP) {
        if (staticEval - sel.futilityMargin * depth >= beta) {
          this.heuristicLeaves++;
          return staticEval;
        }
      }
    }

    if (this.useProbCut && !pvNode && depth >= 2) {
      const cut = this.probCut(depth, alpha, beta, ply, offset);
      if (this.stopped) return 0;
      if (cut !== NO_CUT) return cut;
    }

    const count = this.generate(offset);
    if (count === 0) return matedScore;
    // A list cut to the best few moves proves nothing when every move in it loses.
    const truncated = pos.movesTruncated === true;
    const hlStart = this.heuristicLeaves;
    this.scoreMoves(offset, count, ttMove, ply);

    const side = pos.side;
    const historyBase = side * this.moveSpace;
    const childOffset = offset + count;
    let best = -INFINITE_SCORE;
    let bestMove = -1;
    let moveLimit = count;
    let improving = false;
    if (sel !== null && this.evalAtPly[ply] !== NO_EVAL) {
      improving = ply >= 2 && this.evalAtPly[ply - 2] !== NO_EVAL && this.evalAtPly[ply] > this.evalAtPly[ply - 2];
      if (depth < MOVE_COUNTS.length) moveLimit = improving ? MOVE_COUNTS[depth] : MOVE_COUNTS[depth] >> 1;
    }
    const relief = sel !== null && sel.logReductionRelief !== undefined ? sel.logReductionRelief : -1;
    for (let i = 0; i < count; i++) {
      const move = pickBest(this.moves, this.orderScores, offset + i, offset + count);
      if (i >= moveLimit && best > -EVAL_LIMIT && this.orderScores[offset + i] < TACTICAL_ORDER_SCORE) {
        // A late quiet move of a node that already has a move which does not lose: skipped.
        this.heuristicLeaves++;
        continue;
      }
      pos.makeMove(move);
      this.nodes++;
      let score: number;
      if (i === 0) {
        // A single reply (a forced block) does not use up a ply under selective search.
        const extend = count === 1 && sel !== null && ply < EXTENSION_MAX_PLY;
        score = -this.negamax(extend ? depth : depth - 1, -beta, -alpha, ply + 1, childOffset);
      } else {
        // Late-move reduction for quiet-looking, late moves; re-searched at full depth if it surprises.
        const reduction =
          relief >= 0
            ? logReduction(depth, i, relief, pvNode, improving, this.orderScores[offset + i] >= TACTICAL_ORDER_SCORE)
            : depth >= 3 && i >= 3 && this.orderScores[offset + i] < TACTICAL_ORDER_SCORE
              ? i >= 8 && depth >= 5
                ? 2
                : 1
              : 0;
        score = -this.negamax(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, childOffset);
        if (score > alpha && reduction > 0 && !this.stopped) {
          score = -this.negamax(depth - 1, -alpha - 1, -alpha, ply + 1, childOffset);
        }
        if (score > alpha && score < beta && pvNode && !this.stopped) {
          score = -this.negamax(depth - 1, -beta, -alpha, ply + 1, childOffset);
        }
      }
      pos.unmakeMove(move);
      if (this.stopped) return 0;
      if (score > best) {
        best = score;
        bestMove = move;
        if (score > alpha) {
          alpha = score;
          this.updatePv(ply, move);
          if (score >= beta) {
            this.onCutoff(move, ply, depth, historyBase, ttMove);
            break;
          }
        }
      }
    }

    if (truncated && best < 0 && isProven(best)) {
      best = -(EVAL_LIMIT - 1);
      this.heuristicLeaves++;
    }
    const bound = best >= beta ? BOUND_LOWER : best > alphaOrig ? BOUND_EXACT : BOUND_UPPER;
    tt.store(hashLo, hashHi, depth, bound, best, ply, bestMove, this.heuristicLeaves === hlStart);
    return best;
  }

  /** The same negamax, run by the position's subtree search in one call; its counters are added to this search's. */
  private subtreeNegamax(depth: number, alpha: number, beta: number, ply: number): number {
    if (this.stopped) {
      this.pvLength[ply] = ply;
      return 0;
    }
    const subtree = this.subtree!;
    const score = subtree.negamax(this, depth, alpha, beta, ply, this.keyLo, this.keyHi, this.nodes, this.checkMask, this.table.age);
    this.nodes = subtree.nodes;
    this.heuristicLeaves += subtree.heuristicLeaves;
    this.probCuts += subtree.probCuts;
    return score;
  }

  /** SubtreeHost: the table, read as negamax reads it. */
  probeTable(hashLo: number, hashHi: number, ply: number, hit: Int32Array): boolean {
    const tt = this.table;
    const slot = tt.probe(hashLo, hashHi);
    if (slot < 0) return false;
    hit[0] = tt.move(slot);
    hit[1] = tt.score(slot, ply);
    hit[2] = tt.depth(slot);
    hit[3] = tt.bound(slot);
    hit[4] = tt.exactSubtree(slot) ? 1 : 0;
    return true;
  }

  storeTable(hashLo: number, hashHi: number, depth: number, bound: number, score: number, ply: number, move: number, exactSubtree: boolean): void {
    this.table.store(hashLo, hashHi, depth, bound, score, ply, move, exactSubtree);
  }

  pollStop(nodes: number): boolean {
    this.nodes = nodes;
    return this.checkStop();
  }

  /**
   * Multi-ProbCut (Buro): a shallow null-window search predicts the deep value as slope * v +
   * intercept with the position's margin; when the prediction is beyond the window with that
   * confidence, the node is cut (fail-hard, at beta or alpha). Only heuristic windows are probed.
   */
  private probCut(depth: number, alpha: number, beta: number, ply: number, offset: number): number {
    const out = this.probCutOut;
    const shallow = this.pos.probCut!(depth, out);
    if (shallow < 0 || shallow >= depth) return NO_CUT;
    const slope = out[0];
    const intercept = out[1];
    const margin = out[2];
    if (beta < EVAL_LIMIT) {
      const up = Math.ceil((beta + margin - intercept) / slope);
      if (up < EVAL_LIMIT && up > -EVAL_LIMIT) {
        const v = this.negamax(shallow, up - 1, up, ply, offset);
        if (this.stopped) return NO_CUT;
        if (v >= up) {
          this.probCuts++;
          this.heuristicLeaves++;
          return beta;
        }
      }
    }
    if (alpha > -EVAL_LIMIT) {
      const down = Math.floor((alpha - margin - intercept) / slope);
      if (down > -EVAL_LIMIT && down < EVAL_LIMIT) {
        const v = this.negamax(shallow, down, down + 1, ply, offset);
        if (this.stopped) return NO_CUT;
        if (v <= down) {
          this.probCuts++;
          this.heuristicLeaves++;
          return alpha;
        }
      }
    }
    return NO_CUT;
  }

  private scoreMoves(offset: number, count: number, ttMove: number, ply: number): void {
    const moves = this.moves;
    const scores = this.orderScores;
    const killer1 = this.killers[ply * 2];
    const killer2 = this.killers[ply * 2 + 1];
    const history = this.history;
    const historyBase = this.pos.side * this.moveSpace;
    const hint = this.useOrderHint;
    for (let i = offset, end = offset + count; i < end; i++) {
      const move = moves[i];
      if (move === ttMove) scores[i] = TT_MOVE_BONUS;
      else if (move === killer1) scores[i] = KILLER_BONUS_1;
      else if (move === killer2) scores[i] = KILLER_BONUS_2;
      else scores[i] = history[historyBase + move] + (hint ? this.pos.moveOrderScore!(move) * HINT_WEIGHT : 0);
    }
  }

  private onCutoff(move: number, ply: number, depth: number, historyBase: number, ttMove: number): void {
    if (move !== ttMove && this.killers[ply * 2] !== move) {
      this.killers[ply * 2 + 1] = this.killers[ply * 2];
      this.killers[ply * 2] = move;
    }
    const h = this.history;
    const v = h[historyBase + move] + depth * depth;
    if (v >= HISTORY_LIMIT) {
      for (let i = 0; i < h.length; i++) h[i] >>= 1;
      h[historyBase + move] = v >> 1;
    } else {
      h[historyBase + move] = v;
    }
  }

  private updatePv(ply: number, move: number): void {
    const row = ply * MAX_PLY;
    const childRow = (ply + 1) * MAX_PLY;
    this.pvTable[row + ply] = move;
    const childLength = this.pvLength[ply + 1];
    let length = ply + 1;
    for (let i = ply + 1; i < childLength; i++) this.pvTable[row + i] = this.pvTable[childRow + i];
    if (childLength > length) length = childLength;
    this.pvLength[ply] = length;
  }

  private readPv(): number[] {
    const pv: number[] = [];
    for (let i = 0; i < this.pvLength[0]; i++) pv.push(this.pvTable[i]);
    return pv;
  }

  private checkStop(): boolean {
    if (this.stopped) return true;
    if (this.nodes >= this.nodeLimit || Date.now() >= this.deadline) this.stopped = true;
    else if (this.shouldStop !== undefined && this.shouldStop()) {
      this.stopped = true;
      this.cancelled = true;
    }
    return this.stopped;
  }
}

function copyLine(line: SearchLine): SearchLine {
  return { ...line, pv: [...line.pv] };
}
