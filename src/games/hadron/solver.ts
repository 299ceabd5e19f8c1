/**
 * Exact Hadron solver: does the side to move win?
 *
 * A position is the sum of its independent regions of live cells (see liveness.ts). Regions of at
 * most `abstractSize` cells are replaced by their exact game values (canonical forms, cgt.ts),
 * summed into one value V; the remaining big regions are searched move by move. A node of the
 * search is therefore (big regions on the board, V, side to move), and the side to move may play
 * either on the board or in V (replacing V by one of its options). Since the outcome of G + V
 * depends only on the value of V, this is exact.
 *
 * The transposition table is keyed by the big regions up to translation and the 8 grid
 * symmetries (each region separately: they are independent), plus V, all seen from the side to
 * move (colours swapped when Black moves, V negated), and stores "mover wins" / "mover loses".
 */
import { BLACK, EMPTY, type Geometry, MAX_CELLS, WHITE, geometryFor } from './geometry.js';
import { GameStore, ZERO } from './cgt.js';
import { LiveAnalysis, liftPiece, placePiece } from './liveness.js';
import { ABORTED, RegionKeys, RegionValues } from './regions.js';

const TT_BITS = 20;
const TT_WIN = 1;
const TT_LOSS = 2;
/** Regions up to this size get exact values; larger ones are searched. */
export const DEFAULT_ABSTRACT_SIZE = 12;
/**
 * Boards of at most SMALL_BOARD_CELLS cells: regions up to SMALL_ABSTRACT_SIZE cells get values and
 * moves are ordered by replies alone (no history). Measured on the empty boards (CPU time, one
 * core): 4x6 14 s -> 0.8-1.2 s, 5x5 2.1 s -> 0.35 s, 4x5 0.6 s -> 0.05 s; the value computations of
 * 9-12-cell regions cost more there than searching them. On 9x9 endgames (40-52 live cells) the
 * same setting was sometimes faster, sometimes much slower, so big boards keep the defaults.
 */
export const SMALL_BOARD_CELLS = 30;
const SMALL_ABSTRACT_SIZE = 8;
/** Store growth (games + memo entries) beyond which the caches are dropped between solves. */
export const DEFAULT_SYMMETRIC_KEY_SIZE = 18;
const STORE_LIMIT = 4_000_000;
const POLL_MASK = 1023;

export interface SolverLimits {
  /** Polled every 1024 nodes; true aborts the solve. */
  shouldStop?: () => boolean;
  /** Abort after about this many nodes. */
  nodeLimit?: number;
}

export class HadronSolver {
  readonly store = new GameStore();
  readonly values = new RegionValues(this.store);
  /** Set by load() from the board size (see SMALL_BOARD_CELLS); may be overridden after it. */
  abstractSize = DEFAULT_ABSTRACT_SIZE;
  historyWeight = 1;
  /** Big regions of at least this many cells get symmetry-folded keys. */
  symmetricKeySize = DEFAULT_SYMMETRIC_KEY_SIZE;
  nodes = 0;

  private readonly keys = new RegionKeys();
  private readonly ttLo = new Int32Array(1 << TT_BITS);
  private readonly ttHi = new Int32Array(1 << TT_BITS);
  private readonly ttResult = new Uint8Array(1 << TT_BITS);
  private readonly ttMask = (1 << TT_BITS) - 1;

  private g: Geometry = geometryFor(2, 2);
  private readonly cells = new Uint8Array(MAX_CELLS);
  private readonly balance = new Int8Array(MAX_CELLS);
  private side = 0;

  private readonly analyses: LiveAnalysis[] = [];
  /** Live cells of the big regions at each ply: the candidates of the next ply. */
  private readonly bigCells: Int32Array[] = [];
  private readonly bigCount = new Int32Array(MAX_CELLS + 2);
  private readonly moves: Int32Array[] = [];
  private readonly moveScore: Int32Array[] = [];
  /**
   * History heuristic per side and cell: moves that won before are tried first. Cells are numbered
   * per board shape, so each shape keeps its own table (another shape's would misorder the moves).
   */
  private history: Int32Array = new Int32Array(2 * MAX_CELLS);
  private readonly histories = new Map<Geometry, Int32Array>();
  /** Mixed into the keys of regions keyed where they lie (cell numbers mean different cells per shape). */
  private shapeLo = 0;
  private shapeHi = 0;

  private shouldStop: (() => boolean) | null = null;
  private nodeLimit = Infinity;

  constructor() {
    for (let ply = 0; ply <= MAX_CELLS + 1; ply++) {
      this.analyses.push(new LiveAnalysis());
      this.bigCells.push(new Int32Array(MAX_CELLS));
      this.moves.push(new Int32Array(MAX_CELLS));
      this.moveScore.push(new Int32Array(MAX_CELLS));
    }
  }

  /** Loads a board (cells indexed row * cols + col) and the side to move. */
  load(rows: number, cols: number, cells: ArrayLike<number>, side: number): void {
    this.g = geometryFor(rows, cols);
    const g = this.g;
    const small = g.cellCount <= SMALL_BOARD_CELLS;
    this.abstractSize = small ? SMALL_ABSTRACT_SIZE : DEFAULT_ABSTRACT_SIZE;
    this.historyWeight = small ? 0 : 1;
    let history = this.histories.get(g);
    if (history === undefined) {
      history = new Int32Array(2 * MAX_CELLS);
      this.histories.set(g, history);
    }
    this.history = history;
    this.shapeLo = Math.imul(rows * 16 + cols, 0x9e3779b1);
    this.shapeHi = Math.imul(rows * 16 + cols, 0x85ebca6b);
    this.cells.fill(EMPTY);
    this.balance.fill(0);
    for (let cell = 0; cell < g.cellCount; cell++) {
      const piece = cells[cell];
      if (piece !== EMPTY) placePiece(g, this.cells, this.balance, cell, piece, piece === WHITE ? 1 : -1);
    }
    this.side = side;
  }

  /** Drops all caches when they grew too big (call between solves only). */
  trimCaches(): void {
    if (this.store.footprint + this.values.cache.size + this.values.placedCache.size > STORE_LIMIT) this.clearCaches();
  }

  clearCaches(): void {
    this.store.reset();
    this.values.clear();
    this.ttResult.fill(0);
    for (const history of this.histories.values()) history.fill(0);
  }

  /**
   * A winning board move of the last solveLoaded that returned true, or -1 when the win was found
   * inside an abstracted (valued) region, whose cells the value does not name.
   */
  rootMove = -1;

  /**
   * True when the side to move wins the loaded position, false when it loses, null when stopped.
   * Leaves the board as loaded. On a win, rootMove names a winning move when it can.
   */
  solveLoaded(limits: SolverLimits = {}): boolean | null {
    this.begin(limits);
    this.rootMove = -1;
    const candidates = this.bigCells[MAX_CELLS + 1];
    let n = 0;
    for (let cell = 0; cell < this.g.cellCount; cell++) if (this.cells[cell] === EMPTY) candidates[n++] = cell;
    return this.guarded(() => this.moverWins(0, ZERO, candidates, n));
  }

  /**
   * Solves the loaded position after `move` (a playable cell): true when the side that played it
   * wins. Used move by move at the root so that the caller learns a winning move.
   */
  moveWins(move: number, limits: SolverLimits = {}): boolean | null {
    this.begin(limits);
    const candidates = this.bigCells[MAX_CELLS + 1];
    let n = 0;
    for (let cell = 0; cell < this.g.cellCount; cell++) if (this.cells[cell] === EMPTY && cell !== move) candidates[n++] = cell;
    const piece = this.side === 0 ? WHITE : BLACK;
    const delta = this.side === 0 ? 1 : -1;
    placePiece(this.g, this.cells, this.balance, move, piece, delta);
    this.side ^= 1;
    const result = this.guarded(() => this.moverWins(0, ZERO, candidates, n));
    this.side ^= 1;
    liftPiece(this.g, this.cells, this.balance, move, delta);
    return result === null ? null : !result;
  }

  /** Plays a move on the loaded board (for line extraction). */
  play(move: number): void {
    placePiece(this.g, this.cells, this.balance, move, this.side === 0 ? WHITE : BLACK, this.side === 0 ? 1 : -1);
    this.side ^= 1;
  }

  undo(move: number): void {
    this.side ^= 1;
    liftPiece(this.g, this.cells, this.balance, move, this.side === 0 ? 1 : -1);
  }

  /** Playable cells of the loaded board into `out`; returns how many. */
  playableCells(out: Int32Array): number {
    let n = 0;
    for (let cell = 0; cell < this.g.cellCount; cell++) if (this.cells[cell] === EMPTY && this.balance[cell] === 0) out[n++] = cell;
    return n;
  }

  /** Live cells of the loaded board (the analysis of liveness.ts). */
  liveCount(): number {
    const a = this.analyses[MAX_CELLS + 1];
    const list = this.bigCells[MAX_CELLS];
    let n = 0;
    for (let cell = 0; cell < this.g.cellCount; cell++) if (this.cells[cell] === EMPTY) list[n++] = cell;
    a.analyse(this.g, this.cells, this.balance, list, n);
    let live = 0;
    for (let k = 0; k < a.regionCount; k++) if (a.regionPlayable[k] > 0) live += a.regionSize(k);
    return live;
  }

  private begin(limits: SolverLimits): void {
    this.nodes = 0;
    this.shouldStop = limits.shouldStop ?? null;
    this.nodeLimit = limits.nodeLimit ?? Infinity;
    this.values.shouldStop = this.shouldStop;
  }

  private guarded(run: () => boolean): boolean | null {
    const stackTop = this.store.stackTop;
    const snapshot = this.boardSnapshot();
    try {
      return run();
    } catch (error) {
      if (error !== ABORTED) throw error;
      this.store.stackTop = stackTop;
      this.restoreBoard(snapshot);
      return null;
    }
  }

  private readonly savedCells = new Uint8Array(MAX_CELLS);
  private readonly savedBalance = new Int8Array(MAX_CELLS);
  private savedSide = 0;

  private boardSnapshot(): null {
    this.savedCells.set(this.cells);
    this.savedBalance.set(this.balance);
    this.savedSide = this.side;
    return null;
  }

  private restoreBoard(_: null): void {
    this.cells.set(this.savedCells);
    this.balance.set(this.savedBalance);
    this.side = this.savedSide;
  }

  /**
   * Does the side to move win? `value` is the abstracted part (White = Left); `list[0 .. count)`
   * are the cells that may still be live on the board (the parent's big regions).
   */
  private moverWins(ply: number, value: number, list: Int32Array, count: number): boolean {
    if ((++this.nodes & POLL_MASK) === 0) {
      if (this.nodes >= this.nodeLimit || (this.shouldStop !== null && this.shouldStop())) throw ABORTED;
    }
    const g = this.g;
    const cells = this.cells;
    const balance = this.balance;
    const store = this.store;
    const a = this.analyses[ply];
    a.analyse(g, cells, balance, list, count);

    // Small regions become exact values; big ones stay on the board.
    const big = this.bigCells[ply];
    let bigN = 0;
    let keyLo = 0;
    let keyHi = 0;
    const colourSign = this.side === 0 ? 1 : -1;
    for (let k = 0; k < a.regionCount; k++) {
      if (a.regionPlayable[k] === 0) continue; // nothing can ever be played there
      const start = a.regionStart[k];
      const end = a.regionStart[k + 1];
      if (end - start <= this.abstractSize) {
        value = store.add(value, this.values.value(g, cells, balance, a.regionCells, start, end));
      } else {
        for (let i = start; i < end; i++) big[bigN++] = a.regionCells[i];
        // Symmetry folding pays near the top of the tree (big, often symmetric boards); deeper
        // down the plain key is cheaper. The choice depends on the region alone, so it is stable.
        if (end - start >= this.symmetricKeySize) this.keys.compute(g, balance, a.regionCells, start, end, colourSign, false);
        else {
          this.keys.computePlaced(balance, a.regionCells, start, end, colourSign);
          this.keys.keyLo ^= this.shapeLo;
          this.keys.keyHi ^= this.shapeHi;
        }
        keyLo = (keyLo + this.keys.keyLo) | 0;
        keyHi = (keyHi + this.keys.keyHi) | 0;
      }
    }
    this.bigCount[ply] = bigN;
    const white = this.side === 0;
    if (bigN === 0) return white ? store.leftWinsFirst(value) : store.rightWinsFirst(value);

    // The node seen from the mover: V as it is for White, negated for Black.
    const moverValue = white ? value : store.neg(value);
    keyLo = (keyLo + Math.imul(moverValue + 1, 0x9e3779b1)) | 0;
    keyHi = (keyHi ^ Math.imul((moverValue + 1) ^ 0x5bd1e995, 0x85ebca6b)) | 0;
    const slot = (keyLo ^ Math.imul(keyHi, 0x27d4eb2f)) & this.ttMask;
    // The root is always expanded: its caller wants the winning move, not just the verdict.
    if (ply > 0 && this.ttLo[slot] === keyLo && this.ttHi[slot] === keyHi && this.ttResult[slot] !== 0) {
      return this.ttResult[slot] === TT_WIN;
    }

    const moves = this.moves[ply];
    const scores = this.moveScore[ply];
    let n = 0;
    const historyBase = this.side * MAX_CELLS;
    const piece = white ? WHITE : BLACK;
    const delta = white ? 1 : -1;
    const nbrs = g.neighbours;
    for (let i = 0; i < bigN; i++) {
      const cell = big[i];
      if (balance[cell] !== 0) continue;
      // Fewer replies first: a move that leaves the opponent little choice is cheap to prove.
      let replies = 0;
      for (let j = cell * 4, end = j + g.neighbourCount[cell]; j < end; j++) {
        const q = nbrs[j];
        if (cells[q] !== EMPTY) continue;
        const b = balance[q];
        if (b === 0) replies--;
        else if (b + delta === 0) replies++;
      }
      moves[n] = cell;
      scores[n] = this.history[historyBase + cell] * this.historyWeight - replies;
      n++;
    }
    let wins = false;
    for (let i = 0; i < n; i++) {
      // Selection sort step: best history first.
      let best = i;
      for (let j = i + 1; j < n; j++) if (scores[j] > scores[best]) best = j;
      const move = moves[best];
      moves[best] = moves[i];
      scores[best] = scores[i];
      moves[i] = move;
      placePiece(g, cells, balance, move, piece, delta);
      this.side ^= 1;
      const childWins = this.moverWins(ply + 1, value, big, bigN);
      this.side ^= 1;
      liftPiece(g, cells, balance, move, delta);
      if (!childWins) {
        wins = true;
        if (ply === 0) this.rootMove = move;
        this.history[historyBase + move] += 1 + (bigN >> 2);
        break;
      }
    }
    if (!wins) {
      const options = white ? store.leftOptionCount(value) : store.rightOptionCount(value);
      for (let i = 0; i < options && !wins; i++) {
        const next = white ? store.leftOption(value, i) : store.rightOption(value, i);
        this.side ^= 1;
        const childWins = this.moverWins(ply + 1, next, big, bigN);
        this.side ^= 1;
        if (!childWins) wins = true;
      }
    }
    this.ttLo[slot] = keyLo;
    this.ttHi[slot] = keyHi;
    this.ttResult[slot] = wins ? TT_WIN : TT_LOSS;
    return wins;
  }
}
