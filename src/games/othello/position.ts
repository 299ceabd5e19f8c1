/**
 * The mutable Othello position the generic search walks: bitboards for mobility, a mailbox for
 * flips, incremental Zobrist hash, and preallocated undo stacks (nothing is allocated per node).
 *
 * Move codes: squares 0..63 (row * 8 + col, row 0 = "1", col 0 = "a") and PASS_MOVE (64). A side
 * with no legal move whose opponent can move generates exactly PASS_MOVE; when neither side can
 * move the game is over and terminal() reports the result by disc count.
 */
import type { SearchPosition, SubtreeSearch } from '../../games/types.js';
import { NOT_TERMINAL, RESULT_DRAW, RESULT_LOSS, RESULT_WIN } from '../../search/score.js';
import {
  BLACK_CELL,
  BORDER,
  BOX_BIT_HI,
  BOX_BIT_LO,
  BOX_DIRECTIONS,
  EMPTY,
  MAILBOX,
  MAX_MOVES,
  MOVE_SPACE,
  PASS_MOVE,
  SQUARES,
  SQUARE_OF_BOX,
  WHITE_CELL,
  mobility,
  mobilityHi,
  popcount,
} from './board.js';
import { flips, flipsHi } from './flips.js';
import { INDEX_BITS, INSTANCE_COUNT, SQUARE_DIGITS, SQUARE_SLOTS, SQUARE_SLOT_START, packedIndices } from './patterns.js';
import type { Evaluator } from './evaluator.js';
import { PatternEvaluator } from './pattern-eval.js';
import { DEFAULT_PROBCUT, probCutProbe, probCutTable } from './probcut.js';
import { searchKernelFor, setSquareOrder } from './search-kernel.js';
import { FLIP_KEY_HI, FLIP_KEY_LO, PLACE_KEY_HI, PLACE_KEY_LO, SIDE_KEY_HI, SIDE_KEY_LO } from './zobrist.js';
import { keySalt } from '../../search/tt.js';

const OTHELLO_SALT = keySalt('othello', 8, 8);

export type { Evaluator } from './evaluator.js';

/** Plies a game can still last: 60 disc moves and at most one pass before each of them. */
const MAX_GAME_PLIES = 128;
/** A move flips at most 19 discs: the eight rays from d4 hold 2+3+2+3+2+2+2+3 inner squares. */
const MAX_FLIPS_PER_MOVE = 20;

/** Static square quality for move ordering: corners first, X and C squares last. */
const SQUARE_ORDER = new Int32Array([
  400, -40, 40, 20, 20, 40, -40, 400,
  -40, -200, -10, -10, -10, -10, -200, -40,
  40, -10, 10, 5, 5, 10, -10, 40,
  20, -10, 5, 0, 0, 5, -10, 20,
  20, -10, 5, 0, 0, 5, -10, 20,
  40, -10, 10, 5, 5, 10, -10, 40,
  -40, -200, -10, -10, -10, -10, -200, -40,
  400, -40, 40, 20, 20, 40, -40, 400,
]);
setSquareOrder(SQUARE_ORDER);

/** Mobility cache states per ply. */
const MOBILITY_UNKNOWN = 0;
const MOBILITY_KNOWN = 1;

export class OthelloPosition implements SearchPosition {
  hashLo = 0;
  hashHi = 0;
  /** The game (one board shape), mixed into the search's TT keys. */
  readonly keySalt = OTHELLO_SALT;
  side = 0;
  readonly moveSpace = MOVE_SPACE;
  readonly maxMoves = MAX_MOVES;

  /** Mailbox: EMPTY, BLACK_CELL, WHITE_CELL, BORDER. */
  readonly cells = new Int8Array(100);
  /** [black lo, black hi, white lo, white hi]. */
  readonly bits = new Int32Array(4);
  empties = SQUARES;
  /** Plies made since the position was set up (index into the undo stacks). */
  ply = 0;

  private readonly undoFlipLo = new Int32Array(MAX_GAME_PLIES);
  private readonly undoFlipHi = new Int32Array(MAX_GAME_PLIES);
  private readonly undoHashLo = new Int32Array(MAX_GAME_PLIES);
  private readonly undoHashHi = new Int32Array(MAX_GAME_PLIES);
  private readonly undoFlipStart = new Int32Array(MAX_GAME_PLIES + 1);
  private readonly flippedBoxes = new Uint8Array(MAX_GAME_PLIES * MAX_FLIPS_PER_MOVE);
  /** Legal-move sets of the side to move per ply, filled lazily by terminal()/generateMoves(). */
  private readonly mobilityState = new Uint8Array(MAX_GAME_PLIES + 1);
  private readonly mobilityLo = new Int32Array(MAX_GAME_PLIES + 1);
  private readonly mobilityHiAt = new Int32Array(MAX_GAME_PLIES + 1);

  private evaluatorNow: Evaluator;
  /**
   * Pattern indices per ply (patterns.ts packedIndices: Black's view and the occupancy), kept when the evaluator reads them: makeMove
   * copies the block and applies each changed square's deltas, unmakeMove restores by stepping back a ply.
   */
  readonly indexStack = new Int32Array((MAX_GAME_PLIES + 1) * INSTANCE_COUNT);
  private indexed = false;
  /** Plies below this have no valid block (the evaluator was switched after setup at this ply). */
  private indexFloor = 0;
  /** Multi-ProbCut confidence in standard deviations (probcut.ts); 0 = off. */
  probCutConfidence = DEFAULT_PROBCUT;

  constructor(evaluator: Evaluator) {
    this.evaluatorNow = evaluator;
    this.indexed = typeof evaluator.evaluateIndexed === 'function';
    this.cells.fill(BORDER);
    for (let sq = 0; sq < SQUARES; sq++) this.cells[MAILBOX[sq]] = EMPTY;
  }

  get evaluator(): Evaluator {
    return this.evaluatorNow;
  }

  /** Switching to an evaluator that reads incremental indices computes them for the current ply. */
  set evaluator(evaluator: Evaluator) {
    this.evaluatorNow = evaluator;
    const indexed = typeof evaluator.evaluateIndexed === 'function';
    if (indexed && !this.indexed) {
      this.refreshIndices(this.ply);
      this.indexFloor = this.ply;
    }
    this.indexed = indexed;
  }

  /** Recomputes the index block of `ply` from the bitboards. */
  private refreshIndices(ply: number): void {
    const b = this.bits;
    packedIndices(b[0], b[1], b[2], b[3], this.indexStack, ply * INSTANCE_COUNT);
  }

  /** Where the current ply's block starts in indexStack. */
  get indexAt(): number {
    return this.ply * INSTANCE_COUNT;
  }

  /** The WebAssembly midgame search (search-kernel.ts), for the pattern evaluation with kept indices. */
  subtreeSearch(): SubtreeSearch | null {
    const evaluator = this.evaluatorNow;
    if (!this.indexed || !(evaluator instanceof PatternEvaluator)) return null;
    return searchKernelFor(evaluator, this);
  }

  /** The incremental index block of the current ply (tests compare it with a recomputed one). */
  patternIndexBlock(): Int32Array {
    return this.indexStack.slice(this.ply * INSTANCE_COUNT, (this.ply + 1) * INSTANCE_COUNT);
  }

  /** Sets discs from bitboards (trusted, disjoint) and the side to move; resets the undo stacks. */
  setup(blackLo: number, blackHi: number, whiteLo: number, whiteHi: number, side: number): void {
    const b = this.bits;
    b[0] = blackLo;
    b[1] = blackHi;
    b[2] = whiteLo;
    b[3] = whiteHi;
    this.side = side;
    this.ply = 0;
    this.undoFlipStart[0] = 0;
    this.mobilityState[0] = MOBILITY_UNKNOWN;
    let hashLo = side === 1 ? SIDE_KEY_LO : 0;
    let hashHi = side === 1 ? SIDE_KEY_HI : 0;
    let empties = 0;
    for (let sq = 0; sq < SQUARES; sq++) {
      const box = MAILBOX[sq];
      const blackHas = (BOX_BIT_LO[box] & blackLo) | (BOX_BIT_HI[box] & blackHi);
      const whiteHas = (BOX_BIT_LO[box] & whiteLo) | (BOX_BIT_HI[box] & whiteHi);
      const cell = blackHas !== 0 ? BLACK_CELL : whiteHas !== 0 ? WHITE_CELL : EMPTY;
      this.cells[box] = cell;
      if (cell === EMPTY) empties++;
      else {
        hashLo ^= PLACE_KEY_LO[(cell - 1) * 100 + box];
        hashHi ^= PLACE_KEY_HI[(cell - 1) * 100 + box];
      }
    }
    this.empties = empties;
    this.hashLo = hashLo;
    this.hashHi = hashHi;
    this.indexFloor = 0;
    if (this.indexed) this.refreshIndices(0);
  }

  /** Hash recomputed from scratch (tests compare it with the incremental one). */
  computeHash(): [number, number] {
    let lo = this.side === 1 ? SIDE_KEY_LO : 0;
    let hi = this.side === 1 ? SIDE_KEY_HI : 0;
    for (let sq = 0; sq < SQUARES; sq++) {
      const box = MAILBOX[sq];
      const cell = this.cells[box];
      if (cell === BLACK_CELL || cell === WHITE_CELL) {
        lo ^= PLACE_KEY_LO[(cell - 1) * 100 + box];
        hi ^= PLACE_KEY_HI[(cell - 1) * 100 + box];
      }
    }
    return [lo, hi];
  }

  /** Legal squares of the side to move, low half (high half in `mobilityHi` of board.ts after the call). */
  private ownMobility(): void {
    const ply = this.ply;
    if (this.mobilityState[ply] === MOBILITY_KNOWN) return;
    const b = this.bits;
    const s = this.side << 1;
    this.mobilityLo[ply] = mobility(b[s], b[s + 1], b[2 - s], b[3 - s]);
    this.mobilityHiAt[ply] = mobilityHi;
    this.mobilityState[ply] = MOBILITY_KNOWN;
  }

  private opponentCanMove(): boolean {
    const b = this.bits;
    const s = this.side << 1;
    return (mobility(b[2 - s], b[3 - s], b[s], b[s + 1]) | mobilityHi) !== 0;
  }

  terminal(): number {
    this.ownMobility();
    const ply = this.ply;
    if ((this.mobilityLo[ply] | this.mobilityHiAt[ply]) !== 0) return NOT_TERMINAL;
    if (this.opponentCanMove()) return NOT_TERMINAL;
    const diff = this.discDifference();
    return diff > 0 ? RESULT_WIN : diff < 0 ? RESULT_LOSS : RESULT_DRAW;
  }

  /** Own discs minus opponent discs for the side to move (empties not counted). */
  discDifference(): number {
    const b = this.bits;
    const s = this.side << 1;
    return popcount(b[s]) + popcount(b[s + 1]) - popcount(b[2 - s]) - popcount(b[3 - s]);
  }

  /** Final disc differential for the side to move, empty squares going to the winner. */
  finalScore(): number {
    const diff = this.discDifference();
    return diff > 0 ? diff + this.empties : diff < 0 ? diff - this.empties : 0;
  }

  generateMoves(buf: Int32Array, offset: number): number {
    this.ownMobility();
    let lo = this.mobilityLo[this.ply];
    let hi = this.mobilityHiAt[this.ply];
    let n = offset;
    if ((lo | hi) === 0) {
      if (!this.opponentCanMove()) return 0;
      buf[n] = PASS_MOVE;
      return 1;
    }
    while (lo !== 0) {
      const bit = lo & -lo;
      buf[n++] = 31 - Math.clz32(bit);
      lo ^= bit;
    }
    while (hi !== 0) {
      const bit = hi & -hi;
      buf[n++] = 63 - Math.clz32(bit);
      hi ^= bit;
    }
    return n - offset;
  }

  /** Legal-move bitboard of the side to move (low half returned, high half in `lastMobilityHi`). */
  legalMovesLo(): number {
    this.ownMobility();
    this.lastMobilityHi = this.mobilityHiAt[this.ply];
    return this.mobilityLo[this.ply];
  }
  lastMobilityHi = 0;

  makeMove(move: number): void {
    const ply = this.ply;
    this.undoHashLo[ply] = this.hashLo;
    this.undoHashHi[ply] = this.hashHi;
    const start = this.undoFlipStart[ply];
    let top = start;
    let flipLo = 0;
    let flipHi = 0;
    if (move !== PASS_MOVE) {
      const cells = this.cells;
      const flipped = this.flippedBoxes;
      const me = this.side + 1;
      const opp = 2 - this.side;
      const origin = MAILBOX[move];
      let hashLo = this.hashLo ^ PLACE_KEY_LO[this.side * 100 + origin];
      let hashHi = this.hashHi ^ PLACE_KEY_HI[this.side * 100 + origin];
      for (let d = 0; d < 8; d++) {
        const step = BOX_DIRECTIONS[d];
        let box = origin + step;
        if (cells[box] !== opp) continue;
        box += step;
        while (cells[box] === opp) box += step;
        if (cells[box] !== me) continue;
        for (box -= step; box !== origin; box -= step) {
          cells[box] = me;
          flipped[top++] = box;
          flipLo |= BOX_BIT_LO[box];
          flipHi |= BOX_BIT_HI[box];
          hashLo ^= FLIP_KEY_LO[box];
          hashHi ^= FLIP_KEY_HI[box];
        }
      }
      cells[origin] = me;
      const b = this.bits;
      const s = this.side << 1;
      b[s] |= flipLo | BOX_BIT_LO[origin];
      b[s + 1] |= flipHi | BOX_BIT_HI[origin];
      b[2 - s] ^= flipLo;
      b[3 - s] ^= flipHi;
      this.hashLo = hashLo;
      this.hashHi = hashHi;
      this.empties--;
      if (this.indexed) this.updateIndices(ply, move, start, top);
    } else if (this.indexed) {
      this.indexStack.copyWithin((ply + 1) * INSTANCE_COUNT, ply * INSTANCE_COUNT, (ply + 1) * INSTANCE_COUNT);
    }
    this.undoFlipLo[ply] = flipLo;
    this.undoFlipHi[ply] = flipHi;
    this.hashLo ^= SIDE_KEY_LO;
    this.hashHi ^= SIDE_KEY_HI;
    this.side ^= 1;
    this.ply = ply + 1;
    this.undoFlipStart[ply + 1] = top;
    this.mobilityState[ply + 1] = MOBILITY_UNKNOWN;
  }

  /**
   * The next ply's index block: this ply's, plus the placed square (Black's view: digit 1 for a black disc,
   * 2 for a white one; occupancy: 1) and each flipped square (Black's view only: 2 -> 1 when Black moves,
   * 1 -> 2 when White does).
   */
  private updateIndices(ply: number, move: number, flipStart: number, flipEnd: number): void {
    const idx = this.indexStack;
    const to = (ply + 1) * INSTANCE_COUNT;
    for (let i = to - INSTANCE_COUNT; i < to; i++) idx[i + INSTANCE_COUNT] = idx[i];
    const placed = (this.side === 0 ? 1 : 2) + (1 << INDEX_BITS);
    const flip = this.side === 0 ? -1 : 1;
    for (let k = SQUARE_SLOT_START[move], end = SQUARE_SLOT_START[move + 1]; k < end; k++) idx[to + SQUARE_SLOTS[k]] += placed * SQUARE_DIGITS[k];
    const flipped = this.flippedBoxes;
    for (let i = flipStart; i < flipEnd; i++) {
      const sq = SQUARE_OF_BOX[flipped[i]];
      for (let k = SQUARE_SLOT_START[sq], end = SQUARE_SLOT_START[sq + 1]; k < end; k++) idx[to + SQUARE_SLOTS[k]] += flip * SQUARE_DIGITS[k];
    }
  }

  unmakeMove(move: number): void {
    const ply = this.ply - 1;
    this.ply = ply;
    this.side ^= 1;
    this.hashLo = this.undoHashLo[ply];
    this.hashHi = this.undoHashHi[ply];
    if (move === PASS_MOVE) {
      if (ply < this.indexFloor) this.belowIndexFloor(ply);
      return;
    }
    const cells = this.cells;
    const opp = 2 - this.side;
    const flipped = this.flippedBoxes;
    for (let i = this.undoFlipStart[ply], end = this.undoFlipStart[ply + 1]; i < end; i++) cells[flipped[i]] = opp;
    const origin = MAILBOX[move];
    cells[origin] = EMPTY;
    const flipLo = this.undoFlipLo[ply];
    const flipHi = this.undoFlipHi[ply];
    const b = this.bits;
    const s = this.side << 1;
    b[s] ^= flipLo | BOX_BIT_LO[origin];
    b[s + 1] ^= flipHi | BOX_BIT_HI[origin];
    b[2 - s] |= flipLo;
    b[3 - s] |= flipHi;
    this.empties++;
    if (ply < this.indexFloor) this.belowIndexFloor(ply);
  }

  /** Back below the ply where the indices started to be kept: this ply's block is computed once. */
  private belowIndexFloor(ply: number): void {
    this.indexFloor = ply;
    if (this.indexed) this.refreshIndices(ply);
  }

  /** Squares (as a list) flipped by the last makeMove; for tests and the client face. */
  lastFlipped(): number[] {
    const out: number[] = [];
    const ply = this.ply - 1;
    if (ply < 0) return out;
    for (let i = this.undoFlipStart[ply], end = this.undoFlipStart[ply + 1]; i < end; i++) {
      const box = this.flippedBoxes[i];
      out.push(((box / 10) | 0) * 8 - 8 + (box % 10) - 1);
    }
    return out;
  }

  /**
   * Ordering hint: fewest replies for the opponent first (corners counted twice), then a small
   * square-quality term. Corners are marked tactical so the search never reduces them.
   */
  moveOrderScore(move: number): number {
    if (move === PASS_MOVE) return 0;
    const b = this.bits;
    const s = this.side << 1;
    const pl = b[s];
    const ph = b[s + 1];
    const ol = b[2 - s];
    const oh = b[3 - s];
    const fl = flips(move, pl, ph, ol, oh);
    const fh = flipsHi;
    const bit = 1 << (move & 31);
    const npl = move < 32 ? pl | fl | bit : pl | fl;
    const nph = move < 32 ? ph | fh : ph | fh | bit;
    const rl = mobility(ol ^ fl, oh ^ fh, npl, nph);
    const rh = mobilityHi;
    const replies = popcount(rl) + popcount(rh) + popcount(rl & 0x81) + popcount(rh & 0x81000000);
    return SQUARE_ORDER[move] - replies * 64;
  }

  /** Multi-ProbCut hook of the generic search (SearchPosition.probCut): the midgame only. */
  probCut(depth: number, out: Float64Array): number {
    if (this.probCutConfidence <= 0) return -1;
    return probCutProbe(probCutTable(), this.probCutConfidence, depth, this.empties, out);
  }

  evaluate(): number {
    const b = this.bits;
    const s = this.side << 1;
    const evaluator = this.evaluatorNow;
    if (this.indexed) {
      this.ownMobility();
      const ply = this.ply;
      const ml = this.mobilityLo[ply];
      const mh = this.mobilityHiAt[ply];
      return evaluator.evaluateIndexed!(this.indexStack, ply * INSTANCE_COUNT, this.side, this.empties, b[s], b[s + 1], b[2 - s], b[3 - s], ml, mh);
    }
    return evaluator.evaluate(b[s], b[s + 1], b[2 - s], b[3 - s]);
  }
}
