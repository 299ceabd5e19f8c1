/**
 * Exact endgame solver: the final disc differential with perfect play (empty squares to the winner).
 *
 * Its own fast code path, separate from the generic search: boards are passed by value down the
 * recursion as four int32 (player lo/hi, opponent lo/hi), flips come from `flips()`, and the empty
 * squares live in a linked list kept in a good static order.
 *  - Deep nodes (more than SHALLOW_EMPTIES empties): moves sorted fastest-first (fewest opponent
 *    replies, corner replies counted twice, own sure-stable corner discs favoured; from
 *    EVAL_ORDER_EMPTIES the child's pattern evaluation, from SEARCH_ORDER_EMPTIES its one-ply value), a small
 *    exact-keyed transposition table of score bounds with enhanced transposition cutoffs,
 *    stability cutoffs, principal-variation search.
 *  - Shallow nodes: no sorting and no table, moves tried from the list in parity order (squares in
 *    quadrants with an odd number of empties first), last empty square counted without playing it.
 * With the WebAssembly kernel (kernel.ts) the shallow nodes and the deep nodes up to its midEmpties() run there,
 * step for step the same (same table, same node count); the TypeScript path below stays for a missing kernel.
 * The root narrows the exact score with null-window probes (MTD(f)), the table keeping what earlier
 * probes proved. Their first one comes from a selective pass: the same search with only the best
 * few moves at high empties, which also leaves good moves in the table.
 */
import type { SolveContext, SolveResult } from '../types.js';
import { WIN_SCORE } from '../../search/score.js';
import { PASS_MOVE, SQUARES, mobility, mobilityHi, popcount } from './board.js';
import { ADJACENT_HI, ADJACENT_LO, SQUARE_BIT, countLastFlips, flips, flipsHi } from './flips.js';
import type { Evaluator, OthelloPosition } from './position.js';
import { FeatureEvaluator } from './classic-eval.js';
import { EVAL_UNITS_PER_DISC } from './eval-scale.js';
import { PatternEvaluator } from './pattern-eval.js';
import { shippedPatternTables } from './pattern-weights.js';
import { stableDiscs, stableHi } from './stability.js';
import { type EndgameKernel, endgameKernel } from './kernel.js';
import { SQUARE_PRIORITY } from './square-priority.js';

/** Below this many empties the solver skips sorting and the table. */
const SHALLOW_EMPTIES = 7;
/** Nodes between two polls of the deadline / cancellation. */
const POLL_MASK = 4095;
const MAX_SOLVER_PLY = 64;
const MAX_SOLVER_MOVES = 32;

/** Quadrant bit of each square (parity of empties per quadrant orders shallow moves). */
const QUADRANT = new Int32Array(SQUARES);
for (let sq = 0; sq < SQUARES; sq++) QUADRANT[sq] = 1 << (((sq >> 5) << 1) | ((sq & 7) >> 2));

const CORNER_LO = (1 << 0) | (1 << 7);
const CORNER_HI = (1 << 24) | (1 << 31);

/** Transposition table: 2^TT_BITS entries of [pl, ph, ol, oh, lower, upper, move, unused]. */
const TT_BITS = 18;
const TT_MASK = (1 << TT_BITS) - 1;
const TT_INTS = 8;
/** Empties at or above which nodes use the table. */
const TT_MIN_EMPTIES = SHALLOW_EMPTIES + 1;

const SCORE_MAX = 64;
/**
 * Stability cutoff: the opponent's stable discs cap the score at 64 - 2 * stable. Worth computing
 * only when alpha is high enough for the cap to fall below it (thresholds as in Edax, by empties).
 */
const STABILITY_THRESHOLD = new Int32Array(65).fill(99);
for (let e = 4; e <= 64; e++) STABILITY_THRESHOLD[e] = e <= 9 ? 2 * e - 2 : Math.min(64, 20 + 2 * (e - 10));
/**
 * Move-ordering key weights (lower key first), set by node counts on the bench's 20-empty set:
 * opponent replies (corners twice) dominate; own sure-stable corner discs help a little. Potential
 * mobility and quadrant parity gave no fewer nodes at deep nodes; the evaluation pays with many empties only.
 */
const REPLY_WEIGHT = 16;
/**
 * With many empties a subtree is worth a costlier guess: from EVAL_ORDER_EMPTIES the child's pattern
 * evaluation (for the opponent, lower first) joins the key, from SEARCH_ORDER_EMPTIES the best of the
 * opponent's replies by that evaluation (the first probe's guessSearch at depth 1). Set by node counts and time of outcome
 * proofs at 22 empties and exact solves at 20, on positions of games against NTest: about half the
 * nodes and 40% less time at 22 empties, a quarter fewer nodes at 20 (docs/othello-engine.md).
 */
const EVAL_ORDER_EMPTIES = 14;
const SEARCH_ORDER_EMPTIES = 17;
/** Key units per disc of those values (an opponent reply is REPLY_WEIGHT). */
const EVAL_ORDER_WEIGHT = 8;
const EVAL_ORDER_SCALE = EVAL_ORDER_WEIGHT / EVAL_UNITS_PER_DISC;
const CORNER_STABILITY_WEIGHT = 4;
/** Empties from which a node first looks for a child the table already refutes (ETC). */
const ETC_EMPTIES = 10;
/**
 * Selective pass: moves searched per node from SELECTIVE_EMPTIES empties, and the fewest root
 * empties that make the pass worth it (set by node counts on the bench's 12-20-empty positions).
 */
const SELECTIVE_WIDTH = 3;
const SELECTIVE_EMPTIES = 11;
const SELECTIVE_MIN_ROOT_EMPTIES = 14;
/** Unlimited width: the exact search. */
const FULL_WIDTH = MAX_SOLVER_MOVES;

export class EndgameSolver {
  nodes = 0;
  aborted = false;
  /** Moves searched at nodes with SELECTIVE_EMPTIES or more: below FULL_WIDTH the result is only a guess. */
  width = FULL_WIDTH;
  /** The WebAssembly last plies (kernel.ts), or null for the TypeScript path (same nodes, same scores). */
  readonly kernel: EndgameKernel | null;
  /** Nodes with this many empties or fewer (and more than SHALLOW_EMPTIES) are searched by the kernel's deep nodes. */
  private readonly kernelMidEmpties: number;
  private ctx: SolveContext | null = null;

  /** Linked list of empty squares in SQUARE_PRIORITY order; index SQUARES is the head sentinel. */
  private readonly next = new Int32Array(SQUARES + 1);
  private readonly prev = new Int32Array(SQUARES + 1);
  private parity = 0;

  private readonly moves = new Int32Array(MAX_SOLVER_PLY * MAX_SOLVER_MOVES);
  private readonly keys = new Int32Array(MAX_SOLVER_PLY * MAX_SOLVER_MOVES);
  private readonly flipLo = new Int32Array(MAX_SOLVER_PLY * MAX_SOLVER_MOVES);
  private readonly flipHi = new Int32Array(MAX_SOLVER_PLY * MAX_SOLVER_MOVES);

  /** Exact-keyed bounds; with the kernel, the kernel's table (its deep nodes store there too), one per thread. */
  private readonly tt: Int32Array;
  /** Orders moves only, so it is the shipped evaluation whatever the request's profile: the score does not depend on it. */
  private readonly orderEvaluator = new PatternEvaluator(shippedPatternTables());

  constructor(kernel: EndgameKernel | null = endgameKernel()) {
    this.kernel = kernel;
    this.kernelMidEmpties = kernel === null ? SHALLOW_EMPTIES : kernel.midEmpties();
    this.tt = kernel === null ? new Int32Array((1 << TT_BITS) * TT_INTS) : kernel.table();
    if (this.tt.length !== (1 << TT_BITS) * TT_INTS) throw new Error('othello endgame kernel: table size differs from the solver');
    this.clearTable();
  }

  /** Prepares the empties list for a position given as player / opponent bitboards. */
  private setup(pl: number, ph: number, ol: number, oh: number): void {
    const emptyLo = ~(pl | ol);
    const emptyHi = ~(ph | oh);
    let last = SQUARES;
    this.parity = 0;
    for (const sq of SQUARE_PRIORITY) {
      const isEmpty = sq < 32 ? (emptyLo >>> sq) & 1 : (emptyHi >>> (sq - 32)) & 1;
      if (isEmpty === 0) continue;
      this.next[last] = sq;
      this.prev[sq] = last;
      last = sq;
      this.parity ^= QUADRANT[sq];
    }
    this.next[last] = SQUARES;
    this.prev[SQUARES] = last;
  }

  clearTable(): void {
    this.tt.fill(0);
  }

  /** Drops the table's score bounds (after a selective pass they are not exact) but keeps its moves. */
  forgetBounds(): void {
    const tt = this.tt;
    for (let i = 0; i < tt.length; i += TT_INTS) {
      tt[i + 4] = -SCORE_MAX;
      tt[i + 5] = SCORE_MAX;
    }
  }

  /**
   * Exact score of the position for the side to move (player pl/ph), or a bound when the result
   * lies outside (alpha, beta). Returns 0 with `aborted` set when stopped.
   */
  solve(pl: number, ph: number, ol: number, oh: number, alpha: number, beta: number, ctx: SolveContext | null): number {
    this.ctx = ctx;
    this.aborted = false;
    this.setup(pl, ph, ol, oh);
    const empties = 64 - popcount(pl) - popcount(ph) - popcount(ol) - popcount(oh);
    return this.search(pl, ph, ol, oh, alpha, beta, empties, false, 0);
  }

  private poll(): void {
    const ctx = this.ctx;
    if (ctx !== null && ctx.shouldStop()) this.aborted = true;
  }

  private search(
    pl: number,
    ph: number,
    ol: number,
    oh: number,
    alpha: number,
    beta: number,
    empties: number,
    passed: boolean,
    ply: number,
  ): number {
    if (empties <= SHALLOW_EMPTIES) {
      if (this.kernel === null) return this.shallow(pl, ph, ol, oh, alpha, beta, empties, passed);
      return this.shallowKernel(pl, ph, ol, oh, alpha, beta, empties, passed);
    }
    if (empties <= this.kernelMidEmpties) return this.midKernel(pl, ph, ol, oh, alpha, beta, empties, passed);
    return this.deep(pl, ph, ol, oh, alpha, beta, empties, passed, ply);
  }

  private deep(
    pl: number,
    ph: number,
    ol: number,
    oh: number,
    alpha: number,
    beta: number,
    empties: number,
    passed: boolean,
    ply: number,
  ): number {
    if ((++this.nodes & POLL_MASK) === 0) this.poll();
    if (this.aborted) return 0;

    // Table probe: exact bounds of this very position (the key is the whole board).
    const tt = this.tt;
    const slot = ttSlot(pl, ph, ol, oh);
    let ttMove = -1;
    if (tt[slot] === pl && tt[slot + 1] === ph && tt[slot + 2] === ol && tt[slot + 3] === oh && tt[slot + 7] !== 0) {
      const lower = tt[slot + 4];
      const upper = tt[slot + 5];
      if (lower >= beta) return lower;
      if (upper <= alpha) return upper;
      if (lower === upper) return lower;
      if (lower > alpha) alpha = lower;
      if (upper < beta) beta = upper;
      ttMove = tt[slot + 6];
    }
    if (alpha >= STABILITY_THRESHOLD[empties]) {
      const bound = SCORE_MAX - 2 * (popcount(stableDiscs(ol, oh, pl, ph)) + popcount(stableHi));
      if (bound <= alpha) return bound;
      if (bound < beta) beta = bound;
    }

    const ml = mobility(pl, ph, ol, oh);
    const mh = mobilityHi;
    if ((ml | mh) === 0) {
      if (passed) return finalScore(pl, ph, ol, oh, empties);
      return -this.search(ol, oh, pl, ph, -beta, -alpha, empties, true, ply + 1);
    }

    // Generate and order: fewest opponent replies first, corners counted twice against it.
    const base = ply * MAX_SOLVER_MOVES;
    const moves = this.moves;
    const keys = this.keys;
    const flipLoBuf = this.flipLo;
    const flipHiBuf = this.flipHi;
    let count = 0;
    for (let sq = this.next[SQUARES]; sq !== SQUARES; sq = this.next[sq]) {
      const bit = SQUARE_BIT[sq];
      if (sq < 32 ? (ml & bit) === 0 : (mh & bit) === 0) continue;
      const fl = flips(sq, pl, ph, ol, oh);
      const fh = flipsHi;
      const npl = sq < 32 ? pl | fl | bit : pl | fl;
      const nph = sq < 32 ? ph | fh : ph | fh | bit;
      const nol = ol ^ fl;
      const noh = oh ^ fh;
      if (empties >= ETC_EMPTIES) {
        // Enhanced transposition cutoff: a child already known to be bad enough for the opponent.
        const child = ttSlot(nol, noh, npl, nph);
        if (tt[child] === nol && tt[child + 1] === noh && tt[child + 2] === npl && tt[child + 3] === nph && tt[child + 7] !== 0) {
          const score = -tt[child + 5];
          if (score >= beta) return score;
        }
      }
      const rl = mobility(nol, noh, npl, nph);
      const rh = mobilityHi;
      let key = (popcount(rl) + popcount(rh) + popcount(rl & CORNER_LO) + popcount(rh & CORNER_HI)) * REPLY_WEIGHT;
      key -= cornerStability(npl, nph) * CORNER_STABILITY_WEIGHT;
      if (empties >= SEARCH_ORDER_EMPTIES) {
        key += Math.round(guessSearch(this.orderEvaluator, nol, noh, npl, nph, 1, -INFINITE_GUESS, INFINITE_GUESS, false) * EVAL_ORDER_SCALE);
      } else if (empties >= EVAL_ORDER_EMPTIES) key += Math.round(this.orderEvaluator.evaluate(nol, noh, npl, nph) * EVAL_ORDER_SCALE);
      if (sq === ttMove) key = -1000;
      const at = base + count;
      // Insertion into the sorted run (ascending key).
      let j = at;
      while (j > base && keys[j - 1] > key) {
        moves[j] = moves[j - 1];
        keys[j] = keys[j - 1];
        flipLoBuf[j] = flipLoBuf[j - 1];
        flipHiBuf[j] = flipHiBuf[j - 1];
        j--;
      }
      moves[j] = sq;
      keys[j] = key;
      flipLoBuf[j] = fl;
      flipHiBuf[j] = fh;
      count++;
    }

    const alphaOrig = alpha;
    let best = -SCORE_MAX - 1;
    let bestMove = -1;
    if (count > this.width && empties >= SELECTIVE_EMPTIES) count = this.width;
    for (let i = 0; i < count; i++) {
      const at = base + i;
      const sq = moves[at];
      const fl = flipLoBuf[at];
      const fh = flipHiBuf[at];
      const bit = SQUARE_BIT[sq];
      const npl = sq < 32 ? pl | fl | bit : pl | fl;
      const nph = sq < 32 ? ph | fh : ph | fh | bit;
      this.remove(sq);
      let score: number;
      if (i === 0) {
        score = -this.search(ol ^ fl, oh ^ fh, npl, nph, -beta, -alpha, empties - 1, false, ply + 1);
      } else {
        score = -this.search(ol ^ fl, oh ^ fh, npl, nph, -alpha - 1, -alpha, empties - 1, false, ply + 1);
        if (score > alpha && score < beta && !this.aborted) {
          score = -this.search(ol ^ fl, oh ^ fh, npl, nph, -beta, -alpha, empties - 1, false, ply + 1);
        }
      }
      this.restore(sq);
      if (this.aborted) return 0;
      if (score > best) {
        best = score;
        bestMove = sq;
        if (score > alpha) {
          alpha = score;
          if (score >= beta) break;
        }
      }
    }

    // Store: the bound kind follows from where best fell against the (possibly narrowed) window.
    if (empties >= TT_MIN_EMPTIES) {
      let lower = -SCORE_MAX;
      let upper = SCORE_MAX;
      if (tt[slot] === pl && tt[slot + 1] === ph && tt[slot + 2] === ol && tt[slot + 3] === oh && tt[slot + 7] !== 0) {
        lower = tt[slot + 4];
        upper = tt[slot + 5];
      }
      if (best >= beta) {
        if (best > lower) lower = best;
      } else if (best <= alphaOrig) {
        if (best < upper) upper = best;
      } else {
        lower = best;
        upper = best;
      }
      tt[slot] = pl;
      tt[slot + 1] = ph;
      tt[slot + 2] = ol;
      tt[slot + 3] = oh;
      tt[slot + 4] = lower;
      tt[slot + 5] = upper;
      tt[slot + 6] = bestMove;
      tt[slot + 7] = empties;
    }
    return best;
  }

  /**
   * Deep nodes of few empties in the WebAssembly kernel (the same search, the same table); its nodes join the count.
   * It cannot be stopped midway: its subtrees are small, and the poll follows at once.
   */
  private midKernel(pl: number, ph: number, ol: number, oh: number, alpha: number, beta: number, empties: number, passed: boolean): number {
    if (this.aborted) return 0;
    const kernel = this.kernel!;
    const score = kernel.solveMid(pl, ph, ol, oh, alpha, beta, empties, passed ? 1 : 0, this.width);
    const before = this.nodes;
    this.nodes = before + kernel.takeNodes();
    if ((before & ~POLL_MASK) !== (this.nodes & ~POLL_MASK)) this.poll();
    return score;
  }

  /** The shallow search in the WebAssembly kernel: the empties go in list order; its nodes join the count. */
  private shallowKernel(pl: number, ph: number, ol: number, oh: number, alpha: number, beta: number, empties: number, passed: boolean): number {
    let first = 0;
    let second = 0;
    let i = 0;
    for (let sq = this.next[SQUARES]; sq !== SQUARES; sq = this.next[sq], i++) {
      if (i < 4) first |= sq << (8 * i);
      else second |= sq << (8 * (i - 4));
    }
    const kernel = this.kernel!;
    const score = kernel.solveShallow(pl, ph, ol, oh, alpha, beta, empties, passed ? 1 : 0, first, second);
    const before = this.nodes;
    this.nodes = before + kernel.takeNodes();
    // Poll as often as the TypeScript path: whenever the count passes a multiple of POLL_MASK + 1.
    if ((before & ~POLL_MASK) !== (this.nodes & ~POLL_MASK)) this.poll();
    return score;
  }

  private shallow(
    pl: number,
    ph: number,
    ol: number,
    oh: number,
    alpha: number,
    beta: number,
    empties: number,
    passed: boolean,
  ): number {
    if ((++this.nodes & POLL_MASK) === 0) this.poll();
    if (this.aborted) return 0;
    if (empties <= 4 && empties >= 2) {
      const a = this.next[SQUARES];
      const b = this.next[a];
      if (empties === 2) return this.lastTwo(pl, ph, ol, oh, alpha, beta, a, b, passed);
      const c = this.next[b];
      if (empties === 3) return this.lastThree(pl, ph, ol, oh, alpha, beta, a, b, c, passed);
      // Four: squares alone in their quadrant (odd parity) first; only the 1-1-2 split reorders.
      const d = this.next[c];
      const q = this.parity;
      if ((q & QUADRANT[a]) === 0) {
        if ((q & QUADRANT[b]) !== 0) {
          if ((q & QUADRANT[c]) !== 0) return this.lastFour(pl, ph, ol, oh, alpha, beta, b, c, a, d, passed);
          return this.lastFour(pl, ph, ol, oh, alpha, beta, b, d, a, c, passed);
        }
        if ((q & QUADRANT[c]) !== 0) return this.lastFour(pl, ph, ol, oh, alpha, beta, c, d, a, b, passed);
      }
      return this.lastFour(pl, ph, ol, oh, alpha, beta, a, b, c, d, passed);
    }
    if (alpha >= STABILITY_THRESHOLD[empties]) {
      const bound = SCORE_MAX - 2 * (popcount(stableDiscs(ol, oh, pl, ph)) + popcount(stableHi));
      if (bound <= alpha) return bound;
      if (bound < beta) beta = bound;
    }

    let best = -SCORE_MAX - 1;
    // Two sweeps over the list: squares of odd quadrants first, then the rest.
    for (let sweep = 0; sweep < 2; sweep++) {
      const wantOdd = sweep === 0;
      for (let sq = this.next[SQUARES]; sq !== SQUARES; sq = this.next[sq]) {
        if (((this.parity & QUADRANT[sq]) !== 0) !== wantOdd) continue;
        if ((ol & ADJACENT_LO[sq]) === 0 && (oh & ADJACENT_HI[sq]) === 0) continue;
        const fl = flips(sq, pl, ph, ol, oh);
        const fh = flipsHi;
        if ((fl | fh) === 0) continue;
        const bit = SQUARE_BIT[sq];
        const npl = sq < 32 ? pl | fl | bit : pl | fl;
        const nph = sq < 32 ? ph | fh : ph | fh | bit;
        this.remove(sq);
        const score = -this.shallow(ol ^ fl, oh ^ fh, npl, nph, -beta, -alpha, empties - 1, false);
        this.restore(sq);
        if (score > best) {
          best = score;
          if (score > alpha) {
            alpha = score;
            if (score >= beta) return best;
          }
        }
      }
    }
    if (best > -SCORE_MAX - 1) return best;
    if (passed) return finalScore(pl, ph, ol, oh, empties);
    return -this.shallow(ol, oh, pl, ph, -beta, -alpha, empties, true);
  }

  /** Four empty squares, tried in the given order (no list, no table, no stability test). */
  private lastFour(
    pl: number,
    ph: number,
    ol: number,
    oh: number,
    alpha: number,
    beta: number,
    a: number,
    b: number,
    c: number,
    d: number,
    passed: boolean,
  ): number {
    if ((++this.nodes & POLL_MASK) === 0) this.poll();
    let best = -SCORE_MAX - 1;
    let score: number;
    let fl: number;
    let fh: number;
    let bit: number;
    if ((ol & ADJACENT_LO[a]) !== 0 || (oh & ADJACENT_HI[a]) !== 0) {
      fl = flips(a, pl, ph, ol, oh);
      fh = flipsHi;
      if ((fl | fh) !== 0) {
        bit = SQUARE_BIT[a];
        score = -this.lastThree(ol ^ fl, oh ^ fh, a < 32 ? pl | fl | bit : pl | fl, a < 32 ? ph | fh : ph | fh | bit, -beta, -alpha, b, c, d, false);
        if (score >= beta) return score;
        best = score;
        if (score > alpha) alpha = score;
      }
    }
    if ((ol & ADJACENT_LO[b]) !== 0 || (oh & ADJACENT_HI[b]) !== 0) {
      fl = flips(b, pl, ph, ol, oh);
      fh = flipsHi;
      if ((fl | fh) !== 0) {
        bit = SQUARE_BIT[b];
        score = -this.lastThree(ol ^ fl, oh ^ fh, b < 32 ? pl | fl | bit : pl | fl, b < 32 ? ph | fh : ph | fh | bit, -beta, -alpha, a, c, d, false);
        if (score >= beta) return score;
        if (score > best) {
          best = score;
          if (score > alpha) alpha = score;
        }
      }
    }
    if ((ol & ADJACENT_LO[c]) !== 0 || (oh & ADJACENT_HI[c]) !== 0) {
      fl = flips(c, pl, ph, ol, oh);
      fh = flipsHi;
      if ((fl | fh) !== 0) {
        bit = SQUARE_BIT[c];
        score = -this.lastThree(ol ^ fl, oh ^ fh, c < 32 ? pl | fl | bit : pl | fl, c < 32 ? ph | fh : ph | fh | bit, -beta, -alpha, a, b, d, false);
        if (score >= beta) return score;
        if (score > best) {
          best = score;
          if (score > alpha) alpha = score;
        }
      }
    }
    if ((ol & ADJACENT_LO[d]) !== 0 || (oh & ADJACENT_HI[d]) !== 0) {
      fl = flips(d, pl, ph, ol, oh);
      fh = flipsHi;
      if ((fl | fh) !== 0) {
        bit = SQUARE_BIT[d];
        score = -this.lastThree(ol ^ fl, oh ^ fh, d < 32 ? pl | fl | bit : pl | fl, d < 32 ? ph | fh : ph | fh | bit, -beta, -alpha, a, b, c, false);
        if (score > best) best = score;
      }
    }
    if (best > -SCORE_MAX - 1) return best;
    if (passed) return finalScore(pl, ph, ol, oh, 4);
    return -this.lastFour(ol, oh, pl, ph, -beta, -alpha, a, b, c, d, true);
  }

  /** Three empty squares: each move leads to lastTwo with the other two. */
  private lastThree(
    pl: number,
    ph: number,
    ol: number,
    oh: number,
    alpha: number,
    beta: number,
    a: number,
    b: number,
    c: number,
    passed: boolean,
  ): number {
    this.nodes++;
    let best = -SCORE_MAX - 1;
    let score: number;
    let fl: number;
    let fh: number;
    let bit: number;
    if ((ol & ADJACENT_LO[a]) !== 0 || (oh & ADJACENT_HI[a]) !== 0) {
      fl = flips(a, pl, ph, ol, oh);
      fh = flipsHi;
      if ((fl | fh) !== 0) {
        bit = SQUARE_BIT[a];
        score = -this.lastTwo(ol ^ fl, oh ^ fh, a < 32 ? pl | fl | bit : pl | fl, a < 32 ? ph | fh : ph | fh | bit, -beta, -alpha, b, c, false);
        if (score >= beta) return score;
        best = score;
        if (score > alpha) alpha = score;
      }
    }
    if ((ol & ADJACENT_LO[b]) !== 0 || (oh & ADJACENT_HI[b]) !== 0) {
      fl = flips(b, pl, ph, ol, oh);
      fh = flipsHi;
      if ((fl | fh) !== 0) {
        bit = SQUARE_BIT[b];
        score = -this.lastTwo(ol ^ fl, oh ^ fh, b < 32 ? pl | fl | bit : pl | fl, b < 32 ? ph | fh : ph | fh | bit, -beta, -alpha, a, c, false);
        if (score >= beta) return score;
        if (score > best) {
          best = score;
          if (score > alpha) alpha = score;
        }
      }
    }
    if ((ol & ADJACENT_LO[c]) !== 0 || (oh & ADJACENT_HI[c]) !== 0) {
      fl = flips(c, pl, ph, ol, oh);
      fh = flipsHi;
      if ((fl | fh) !== 0) {
        bit = SQUARE_BIT[c];
        score = -this.lastTwo(ol ^ fl, oh ^ fh, c < 32 ? pl | fl | bit : pl | fl, c < 32 ? ph | fh : ph | fh | bit, -beta, -alpha, a, b, false);
        if (score > best) best = score;
      }
    }
    if (best > -SCORE_MAX - 1) return best;
    if (passed) return finalScore(pl, ph, ol, oh, 3);
    return -this.lastThree(ol, oh, pl, ph, -beta, -alpha, a, b, c, true);
  }

  /** Two empty squares a and b left: each move leads straight to the last-square count. */
  private lastTwo(
    pl: number,
    ph: number,
    ol: number,
    oh: number,
    alpha: number,
    beta: number,
    a: number,
    b: number,
    passed: boolean,
  ): number {
    let best = -SCORE_MAX - 1;
    if ((ol & ADJACENT_LO[a]) !== 0 || (oh & ADJACENT_HI[a]) !== 0) {
      const fl = flips(a, pl, ph, ol, oh);
      const fh = flipsHi;
      if ((fl | fh) !== 0) {
        const bit = SQUARE_BIT[a];
        best = -lastSquare(ol ^ fl, oh ^ fh, a < 32 ? pl | fl | bit : pl | fl, a < 32 ? ph | fh : ph | fh | bit, b);
        if (best >= beta) return best;
      }
    }
    if ((ol & ADJACENT_LO[b]) !== 0 || (oh & ADJACENT_HI[b]) !== 0) {
      const fl = flips(b, pl, ph, ol, oh);
      const fh = flipsHi;
      if ((fl | fh) !== 0) {
        const bit = SQUARE_BIT[b];
        const score = -lastSquare(ol ^ fl, oh ^ fh, b < 32 ? pl | fl | bit : pl | fl, b < 32 ? ph | fh : ph | fh | bit, a);
        if (score > best) best = score;
      }
    }
    if (best > -SCORE_MAX - 1) return best;
    if (passed) return finalScore(pl, ph, ol, oh, 2);
    this.nodes++;
    return -this.lastTwo(ol, oh, pl, ph, -beta, -alpha, a, b, true);
  }

  private remove(sq: number): void {
    const p = this.prev[sq];
    const n = this.next[sq];
    this.next[p] = n;
    this.prev[n] = p;
    this.parity ^= QUADRANT[sq];
  }

  private restore(sq: number): void {
    this.next[this.prev[sq]] = sq;
    this.prev[this.next[sq]] = sq;
    this.parity ^= QUADRANT[sq];
  }

  /** Best move recorded in the table for this position, or -1. */
  tableMove(pl: number, ph: number, ol: number, oh: number): number {
    const tt = this.tt;
    const slot = ttSlot(pl, ph, ol, oh);
    if (tt[slot] === pl && tt[slot + 1] === ph && tt[slot + 2] === ol && tt[slot + 3] === oh && tt[slot + 7] !== 0) {
      return tt[slot + 6];
    }
    return -1;
  }
}

/** Own corners and the edge squares next to own corners: discs that are stable for sure. */
function cornerStability(pl: number, ph: number): number {
  const lo = (((pl & 0x01) << 1) | ((pl & 0x80) >>> 1) | ((pl & 0x81) << 8) | 0x81) & pl;
  const hi = (((ph & 0x01000000) << 1) | ((ph & 0x80000000) >>> 1) | ((ph & 0x81000000) >>> 8) | 0x81000000) & ph;
  return popcount(lo) + popcount(hi);
}

function ttSlot(pl: number, ph: number, ol: number, oh: number): number {
  let h = Math.imul(pl ^ 0x2545f491, 0x9e3779b1);
  h = Math.imul(h ^ ph ^ (h >>> 15), 0x85ebca6b);
  h = Math.imul(h ^ ol ^ (h >>> 13), 0xc2b2ae35);
  h = Math.imul(h ^ oh ^ (h >>> 16), 0x27d4eb2f);
  h ^= h >>> 15;
  return (h & TT_MASK) * TT_INTS;
}

/** One empty square left, the player to move: count the flips instead of playing the move. */
function lastSquare(pl: number, ph: number, ol: number, oh: number, sq: number): number {
  // 63 discs on the board: own - opponent = 2 * own - 63.
  const diff = 2 * (popcount(pl) + popcount(ph)) - 63;
  let n = countLastFlips(sq, pl, ph);
  if (n > 0) return diff + 2 * n + 1;
  n = countLastFlips(sq, ol, oh);
  if (n > 0) return diff - 2 * n - 1;
  return diff > 0 ? diff + 1 : diff - 1;
}

function finalScore(pl: number, ph: number, ol: number, oh: number, empties: number): number {
  const diff = popcount(pl) + popcount(ph) - popcount(ol) - popcount(oh);
  return diff > 0 ? diff + empties : diff < 0 ? diff - empties : 0;
}

/**
 * Without a deadline (fixed-depth analysis, arena --depth) an exact solve is still worth its time
 * up to here; deeper ones take tens of seconds in JavaScript.
 */
const UNTIMED_SOLVE_EMPTIES = 20;

/**
 * Empties up to which the solver takes a position on, by the time it has (the solver's share of a budget): an exact
 * score up to `exact`, the outcome alone (win, loss or draw) up to `outcome`. Set from the median times of the
 * solver on positions of games against NTest, one core each (docs/othello-engine.md, 2026-12-05): exact at 20
 * empties 0.2 s, 21 0.37 s, 22 about 1.5 s; the outcome at 22 empties 0.31 s, 23 0.9 s, 24 about 5 s. Each row
 * gives the proof a few times its median, so most finish; a proof that does not leaves the rest to the search.
 */
const SOLVE_LIMITS: readonly { readonly minMs: number; readonly exact: number; readonly outcome: number }[] = [
  { minMs: 30000, exact: 24, outcome: 26 },
  { minMs: 8000, exact: 22, outcome: 24 },
  { minMs: 2000, exact: 21, outcome: 23 },
  { minMs: 1000, exact: 20, outcome: 22 },
  { minMs: 450, exact: 19, outcome: 22 },
  { minMs: 300, exact: 18, outcome: 20 },
  { minMs: 80, exact: 16, outcome: 18 },
  { minMs: 20, exact: 14, outcome: 16 },
  { minMs: 0, exact: 12, outcome: 14 },
];

function solveLimits(budgetMs: number): { readonly exact: number; readonly outcome: number } {
  return SOLVE_LIMITS.find((row) => budgetMs >= row.minMs) ?? SOLVE_LIMITS[SOLVE_LIMITS.length - 1];
}

/** Empties up to which an exact solve is attempted, from the time available. */
export function solvableEmpties(budgetMs: number): number {
  if (!Number.isFinite(budgetMs)) return UNTIMED_SOLVE_EMPTIES;
  return solveLimits(budgetMs).exact;
}

/** Empties up to which the outcome alone is proved when the exact score is out of reach (timed searches only). */
export function provableEmpties(budgetMs: number): number {
  return solveLimits(budgetMs).outcome;
}

const sharedSolver = { instance: null as EndgameSolver | null };

function solverInstance(): EndgameSolver {
  if (sharedSolver.instance === null) sharedSolver.instance = new EndgameSolver();
  return sharedSolver.instance;
}

/**
 * The engine's solve() hook: exact solve when few enough squares are empty for the time left,
 * else null (the generic search takes over). Also null when stopped before finishing.
 */
export function solveEndgame(pos: OthelloPosition, ctx: SolveContext): SolveResult | null {
  const budget = ctx.deadline - Date.now();
  if (pos.empties <= solvableEmpties(budget)) return solveExactly(pos, ctx);
  // Untimed analysis keeps its fixed cost: no win/loss/draw proofs beyond the exact limit.
  if (Number.isFinite(budget) && pos.empties <= provableEmpties(budget)) return solveWinLossDraw(pos, ctx);
  return null;
}

/** The root as own / opponent bitboards (low and high halves), or null when neither side can move. */
function rootBoards(pos: OthelloPosition): [number, number, number, number] | null {
  const b = pos.bits;
  const s = pos.side << 1;
  const pl = b[s];
  const ph = b[s + 1];
  const ol = b[2 - s];
  const oh = b[3 - s];
  const ownMoves = mobility(pl, ph, ol, oh) | mobilityHi;
  const oppMoves = mobility(ol, oh, pl, ph) | mobilityHi;
  return ownMoves === 0 && oppMoves === 0 ? null : [pl, ph, ol, oh];
}

/**
 * Proves only the outcome (win, loss or draw) and a move that keeps it: the null window around 0.
 * The score is the proven-result encoding over the line found; exactScore is known only for a draw.
 * Null if stopped or the game is over.
 */
export function solveWinLossDraw(pos: OthelloPosition, ctx: SolveContext | null): SolveResult | null {
  const root = rootBoards(pos);
  if (root === null) return null;
  const [pl, ph, ol, oh] = root;
  const solver = solverInstance();
  solver.nodes = 0;
  solver.clearTable();
  // Scores are even, so a fail-soft result outside (-1, 1) proves a win or a loss, inside it a draw.
  const bound = solver.solve(pl, ph, ol, oh, -1, 1, ctx);
  if (solver.aborted) return null;
  const outcome = Math.sign(bound);
  const pv = principalVariation(solver, pl, ph, ol, oh, outcome, ctx, true);
  if (pv === null) return null;
  const plies = pv.length;
  const score = outcome > 0 ? WIN_SCORE - plies : outcome < 0 ? -(WIN_SCORE - plies) : 0;
  const result = { move: pv[0], score, pv, nodes: solver.nodes, depth: plies };
  return outcome === 0 ? { ...result, exactScore: 0 } : { ...result, outcomeOnly: true };
}

/** Exact solve regardless of the number of empties (bench, tests); null if stopped or game over. */
export function solveExactly(pos: OthelloPosition, ctx: SolveContext | null): SolveResult | null {
  const root = rootBoards(pos);
  if (root === null) return null;
  const [pl, ph, ol, oh] = root;
  const solver = solverInstance();
  solver.nodes = 0;
  solver.clearTable();

  // Null-window probes (MTD(f)): each probe (g - 1, g + 1) either proves the score is g (scores are
  // even) or returns a fail-soft bound, the next probe; the table keeps what earlier probes proved.
  // The first probe is a shallow midgame search's estimate: the probes on the far side of the true
  // value cost the most, and bisecting from 0 made two or three of them.
  let probe = firstProbe(GUESS_EVALUATOR, pl, ph, ol, oh);
  if (pos.empties >= SELECTIVE_MIN_ROOT_EMPTIES) {
    solver.width = SELECTIVE_WIDTH;
    probe = mtd(solver, pl, ph, ol, oh, probe, ctx);
    solver.width = FULL_WIDTH;
    if (solver.aborted) return null;
    solver.forgetBounds();
    // One below the guess: probes that fail high (one good move) cost less than those that fail low.
    if (probe > 2 - SCORE_MAX) probe -= 2;
  }
  const exact = mtd(solver, pl, ph, ol, oh, probe, ctx);
  if (solver.aborted) return null;
  const pv = principalVariation(solver, pl, ph, ol, oh, exact, ctx);
  if (pv === null) return null;
  const plies = pv.length;
  const score = exact > 0 ? WIN_SCORE - plies : exact < 0 ? -(WIN_SCORE - plies) : 0;
  return { move: pv[0], score, exactScore: exact, pv, nodes: solver.nodes, depth: plies };
}

/** Score by null-window probes from the even guess `probe` (0 with `aborted` set when stopped). */
function mtd(solver: EndgameSolver, pl: number, ph: number, ol: number, oh: number, probe: number, ctx: SolveContext | null): number {
  let lo = -SCORE_MAX;
  let hi = SCORE_MAX;
  for (;;) {
    const r = solver.solve(pl, ph, ol, oh, probe - 1, probe + 1, ctx);
    if (solver.aborted) return 0;
    if (r === probe) return r | 0; // no -0
    if (r > probe) lo = r;
    else hi = r;
    // Each probe moves a bound strictly inward, so this ends. A selective pass is not consistent: its
    // bounds can cross (high at g, low at g - 2); then any value between is as good a guess.
    if (lo >= hi) return lo | 0;
    probe = nextProbe(r > probe ? r + (r & 1) : r - (r & 1), lo, hi);
  }
}

/** The next probe: the bound just found (made even), kept inside the known range [lo, hi]. */
function nextProbe(bound: number, lo: number, hi: number): number {
  return bound < lo ? lo : bound > hi ? hi : bound;
}

/**
 * The first probe's evaluation: the hand-set one, whatever the position's. Its guesses cost the same
 * solver nodes as the pattern evaluation's on the bench's twenty-empty set and it is about twice as fast.
 */
const GUESS_EVALUATOR = new FeatureEvaluator();

/** Plies of the midgame search that picks the first probe. */
const GUESS_DEPTH = 6;

/** The first probe: a GUESS_DEPTH alpha-beta search on the evaluation, in discs, made even. */
function firstProbe(evaluator: Evaluator, pl: number, ph: number, ol: number, oh: number): number {
  const guess = Math.round(guessSearch(evaluator, pl, ph, ol, oh, GUESS_DEPTH, -INFINITE_GUESS, INFINITE_GUESS, false) / (2 * EVAL_UNITS_PER_DISC)) * 2;
  return guess > SCORE_MAX - 2 ? SCORE_MAX - 2 : guess < 2 - SCORE_MAX ? 2 - SCORE_MAX : guess;
}

const INFINITE_GUESS = 1 << 28;

function guessSearch(
  evaluator: Evaluator,
  pl: number,
  ph: number,
  ol: number,
  oh: number,
  depth: number,
  alpha: number,
  beta: number,
  passed: boolean,
): number {
  const ml = mobility(pl, ph, ol, oh);
  const mh = mobilityHi;
  if ((ml | mh) === 0) {
    if (passed) return finalScore(pl, ph, ol, oh, 64 - popcount(pl) - popcount(ph) - popcount(ol) - popcount(oh)) * EVAL_UNITS_PER_DISC;
    return -guessSearch(evaluator, ol, oh, pl, ph, depth, -beta, -alpha, true);
  }
  if (depth === 0) return evaluator.evaluate(pl, ph, ol, oh);
  let best = -INFINITE_GUESS;
  for (let sq = 0; sq < SQUARES; sq++) {
    const bit = SQUARE_BIT[sq];
    if (sq < 32 ? (ml & bit) === 0 : (mh & bit) === 0) continue;
    const fl = flips(sq, pl, ph, ol, oh);
    const fh = flipsHi;
    const npl = sq < 32 ? pl | fl | bit : pl | fl;
    const nph = sq < 32 ? ph | fh : ph | fh | bit;
    const score = -guessSearch(evaluator, ol ^ fl, oh ^ fh, npl, nph, depth - 1, -beta, -alpha, false);
    if (score > best) {
      best = score;
      if (score > alpha) {
        alpha = score;
        if (score >= beta) break;
      }
    }
  }
  return best;
}

/**
 * Moves of an optimal line to the end of the game (passes included). Each step keeps a move whose
 * exact value equals the position's: the table's best move when it checks out, else the first
 * child that does. Returns null if stopped.
 */
function principalVariation(
  solver: EndgameSolver,
  pl: number,
  ph: number,
  ol: number,
  oh: number,
  value: number,
  ctx: SolveContext | null,
  outcomeOnly = false,
): number[] | null {
  const pv: number[] = [];
  for (;;) {
    const ml = mobility(pl, ph, ol, oh);
    const mh = mobilityHi;
    if ((ml | mh) === 0) {
      const rl = mobility(ol, oh, pl, ph);
      if ((rl | mobilityHi) === 0) return pv;
      pv.push(PASS_MOVE);
      [pl, ph, ol, oh] = [ol, oh, pl, ph];
      value = -value;
      continue;
    }
    const candidates: number[] = [];
    const hinted = solver.tableMove(pl, ph, ol, oh);
    if (hinted >= 0) candidates.push(hinted);
    for (let sq = 0; sq < SQUARES; sq++) {
      if (sq === hinted) continue;
      const bit = SQUARE_BIT[sq];
      if (sq < 32 ? (ml & bit) !== 0 : (mh & bit) !== 0) candidates.push(sq);
    }
    let found = -1;
    for (const sq of candidates) {
      const fl = flips(sq, pl, ph, ol, oh);
      const fh = flipsHi;
      const bit = SQUARE_BIT[sq];
      const npl = sq < 32 ? pl | fl | bit : pl | fl;
      const nph = sq < 32 ? ph | fh : ph | fh | bit;
      // Null windows around the target value: the child is optimal iff its value is exactly -value.
      // For an outcome (-1, 0 or 1) the window (-1, 1) gives the child's sign.
      const child = outcomeOnly
        ? -Math.sign(solver.solve(ol ^ fl, oh ^ fh, npl, nph, -1, 1, ctx))
        : -solver.solve(ol ^ fl, oh ^ fh, npl, nph, -value - 1, -value + 1, ctx);
      if (solver.aborted) return null;
      if (child === value) {
        found = sq;
        [pl, ph, ol, oh] = [ol ^ fl, oh ^ fh, npl, nph];
        value = -value;
        break;
      }
    }
    // Unreachable when the solver is right; the generic search is the safe fallback.
    if (found < 0) return null;
    pv.push(found);
  }
}
