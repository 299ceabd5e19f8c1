/**
 * The mutable (M,N,K) position the search walks: board, per-window stone counts, threat sets,
 * incremental line scores, candidate cells and the Zobrist hash, all updated in make/unmake.
 *
 * Cells hold 0 (empty), 1 (X, side 0) or 2 (O, side 1). A move is the cell index row * n + col.
 * Per window w, counts[2w + s] is the number of stones of side s in it. A window "belongs" to a
 * side while the other side has no stone in it; threat sets track, per side, the windows one
 * stone short of K ("fours" in gomoku terms) and two stones short ("threes").
 */
import type { SearchPosition, SelectiveSearch, SubtreeSearch } from '../types.js';
import type { MnkBoardView } from './board-view.js';
import { NOT_TERMINAL, RESULT_DRAW, RESULT_LOSS } from '../../search/score.js';
import { zobristKeys } from '../../core/random.js';
import { type Geometry, geometryFor } from './geometry.js';
import { type MnkProfile, DEFAULT_PROFILE, weightsByCount } from './profile.js';
import { buildHintTables, evaluatePosition, moveOrderHint } from './evaluation.js';
import { FULL_WIDTH_CELLS, FULL_WIDTH_EMPTIES, generateSearchCandidates } from './moves.js';
import { EMPTY, LEVEL_FOUR, LEVEL_THREE, MAX_CELLS } from './cells.js';
import { keySalt } from '../../search/tt.js';
import { PatternBoard } from './patterns.js';
import { neighbourLists } from './neighbours.js';
import { F_FIVE, F_WIN4 } from './pattern-tables.js';
import { evaluatePatterns, patternSelectiveSearch, generatePatternMoves, patternHint } from './pattern-search.js';
import { MnkSearchKernel, searchKernelApplies } from './search-kernel.js';

export { EMPTY, LEVEL_FOUR, LEVEL_THREE, MAX_CELLS };

/** Row and column steps of the four line directions (as in geometry.ts). */
const DIR_DR = [0, 1, 1, 1];
const DIR_DC = [1, 0, 1, -1];

const ZOBRIST = zobristKeys(2 * 2 * MAX_CELLS + 2, 0x6d6e6b21);
const SIDE_KEY_LO = 2 * 2 * MAX_CELLS;

export class MnkPosition implements SearchPosition, MnkBoardView {
  hashLo = 0;
  hashHi = 0;
  /** Game and board shape (m, n, k), mixed into the search's TT keys. */
  readonly keySalt: number;
  side = 0;
  readonly moveSpace: number;
  readonly maxMoves: number;

  readonly geometry: Geometry;
  readonly m: number;
  readonly n: number;
  readonly k: number;
  readonly cellCount: number;
  readonly profile: MnkProfile;

  readonly cells: Uint8Array;
  readonly counts: Uint8Array;
  stones = 0;
  /** Windows holding stones of only one side or none (the only ones anybody can still complete). */
  liveWindows: number;
  /** Per side: windows without an enemy stone, i.e. lines that side can still complete. */
  readonly openWindows = new Int32Array(2);
  /** Sum of window weights per side, over windows that side alone occupies. */
  readonly lineScore = new Float64Array(2);
  readonly weights: Int32Array;
  /** Move-ordering tables by window state (evaluation.ts buildHintTables). */
  readonly hintQuiet: Int32Array;
  readonly hintFlags: Int32Array;

  /** Threat sets, index set = side * 2 + level: members in setItems[set * W ..], sizes in setSize. */
  readonly setItems: Int32Array;
  readonly setSize = new Int32Array(4);
  /** Position of (side, window) inside its set, at [side * W + w]; -1 when in none. */
  readonly setIndex: Int32Array;

  /** Stones within the candidate neighbourhood of each cell (these four arrays move into the search kernel's memory with it). */
  near: Uint16Array;
  /** Empty cells with near > 0: the search's candidate moves. */
  candidates: Int32Array;
  candidateIndex: Int32Array;
  candidateCount = 0;
  /** Scratch for threat scans (threat-scan.ts): a per-cell stamp and value, no allocation per node. */
  readonly scanStamp: Int32Array;
  readonly scanValue: Int32Array;
  scanCounter = 0;
  private readonly neighbourStart: Int32Array;
  private readonly neighbourCells: Int32Array;
  /** 1 for the neighbours that are one of the eight adjacent cells. */
  private readonly neighbourRing1: Uint8Array;
  /** Stones in the eight cells around each cell (near counts the whole neighbourhood). */
  nearRing1: Uint16Array;
  /** The search below the root in WebAssembly (search-kernel.ts), once asked for; null where there is none. */
  private searchKernel: MnkSearchKernel | null | undefined;

  /** Moves made since construction and whether each completed a K-line. */
  readonly played: Int32Array;
  readonly completedLine: Uint8Array;
  ply = 0;
  private rootMoves = new Int32Array(0);
  private rootMoveCount = 0;
  private rootHashLo = 0;
  private rootHashHi = 0;
  /** The decoded position already holds a K-line of the side that moved last. */
  readonly rootWon: boolean;
  /**
   * Gomocup's standard rule: only a line of exactly K wins, an overline does not. Windows, threat
   * sets and line scores still count K-or-more; a move wins only when a run through it is exactly K
   * long (place / winsAt), and the solver and move generator verify threats with winsAt.
   */
  readonly exactK: boolean;
  /** The K = 5 fast path (patterns.ts): line patterns for evaluation, ordering, forced replies and VCF; null otherwise. */
  readonly patterns: PatternBoard | null;
  /** Ply of the position the current search started from (set by the solver at the root). */
  searchRootPly = 0;
  /** Whether the last generateSearchMoves cut quiet moves (pattern path): "every move loses" is then not a proof. */
  movesTruncated = false;
  /**
   * Lazy window state (pattern path on boards past the full-width size): make/unmake skip the window
   * counts, threat sets and line scores, which only the root solver and the full-width move lists
   * read; `windowsStale` says they lag the board until syncWindows rebuilds them.
   */
  private windowsLazy = false;
  private windowsStale = false;

  constructor(
    m: number,
    n: number,
    k: number,
    board: Uint8Array,
    side: number,
    profile: MnkProfile = DEFAULT_PROFILE,
    exactK = false,
  ) {
    const g = geometryFor(m, n, k);
    this.geometry = g;
    this.m = m;
    this.n = n;
    this.k = k;
    this.exactK = exactK;
    this.keySalt = keySalt(exactK ? 'mnk-exact' : 'mnk', m, n, k);
    this.cellCount = m * n;
    this.profile = profile;
    this.moveSpace = this.cellCount;
    const W = g.windowCount;
    this.cells = new Uint8Array(this.cellCount);
    this.counts = new Uint8Array(2 * W);
    this.liveWindows = W;
    this.openWindows[0] = W;
    this.openWindows[1] = W;
    this.weights = weightsByCount(profile, k);
    const hints = buildHintTables(this.weights, k);
    this.hintQuiet = hints.quiet;
    this.hintFlags = hints.flags;
    this.setItems = new Int32Array(4 * W);
    this.setIndex = new Int32Array(2 * W).fill(-1);
    this.near = new Uint16Array(this.cellCount);
    this.candidates = new Int32Array(this.cellCount);
    this.candidateIndex = new Int32Array(this.cellCount).fill(-1);
    this.scanStamp = new Int32Array(this.cellCount);
    this.scanValue = new Int32Array(this.cellCount);
    const ring = k === 5 && profile.patterns ? profile.patternNeighbourhood : profile.neighbourhood;
    const neighbours = neighbourLists(m, n, ring);
    this.neighbourStart = neighbours.start;
    this.neighbourCells = neighbours.cells;
    this.neighbourRing1 = neighbours.ring1;
    this.nearRing1 = new Uint16Array(this.cellCount);
    this.patterns = k === 5 && profile.patterns ? new PatternBoard(m, n, exactK, this.cells) : null;

    let empties = 0;
    for (let cell = 0; cell < this.cellCount; cell++) {
      const v = board[cell];
      if (v === EMPTY) empties++;
      else this.place(cell, v - 1);
    }
    this.maxMoves = Math.max(1, empties);
    // One spare ply for a null move (threat checks "what if the mover passed").
    this.played = new Int32Array(empties + 2);
    this.completedLine = new Uint8Array(empties + 2);
    this.side = side;
    if (side === 1) this.hashLo ^= ZOBRIST[SIDE_KEY_LO];
    if (side === 1) this.hashHi ^= ZOBRIST[SIDE_KEY_LO + 1];
    this.rootWon = this.hasCompleteLine(1 - side);
    this.releaseWindows();
  }

  /** Brings the window counts, threat sets and line scores up to date with the board (rebuilt when stale). */
  syncWindows(): void {
    if (!this.windowsStale) return;
    this.windowsStale = false;
    const W = this.geometry.windowCount;
    this.counts.fill(0);
    this.liveWindows = W;
    this.openWindows[0] = W;
    this.openWindows[1] = W;
    this.lineScore[0] = 0;
    this.lineScore[1] = 0;
    this.setSize.fill(0);
    this.setIndex.fill(-1);
    for (let cell = 0; cell < this.cellCount; cell++) if (this.cells[cell] !== EMPTY) this.placeInWindows(cell, this.cells[cell] - 1);
  }

  /** Keeps the window state up to date through make/unmake from now on (the root solver, full-width lists). */
  useWindows(): void {
    this.syncWindows();
    this.windowsLazy = false;
  }

  /** Lets make/unmake skip the window state again (pattern path on boards past the full-width size only). */
  releaseWindows(): void {
    this.windowsLazy = this.patterns !== null && this.cellCount > FULL_WIDTH_CELLS;
  }

  /** True when `side` owns a winning line anywhere on the board (K or more; exactly K under exactK). */
  hasCompleteLine(side: number): boolean {
    this.syncWindows();
    if (this.exactK) return this.completeLines(side).length > 0;
    const counts = this.counts;
    for (let w = 0, W = this.geometry.windowCount; w < W; w++) if (counts[2 * w + side] === this.k) return true;
    return false;
  }

  /**
   * The cells of each winning line of `side` (not for the search: it allocates): every all-`side`
   * K-window, or under exactK every maximal run of exactly K stones.
   */
  completeLines(side: number): number[][] {
    this.syncWindows();
    const lines: number[][] = [];
    const g = this.geometry;
    const k = this.k;
    if (!this.exactK) {
      for (let w = 0; w < g.windowCount; w++) {
        if (this.counts[2 * w + side] !== k) continue;
        lines.push(Array.from({ length: k }, (_, i) => g.windowStart[w] + i * g.windowStep[w]));
      }
      return lines;
    }
    const stone = side + 1;
    const directions = k === 1 ? 1 : 4;
    for (let d = 0; d < directions; d++) {
      for (let cell = 0; cell < this.cellCount; cell++) {
        // A run starts where the previous cell along d is off the board or not this side's.
        if (this.cells[cell] !== stone || this.stepFrom(cell, d, -1) >= 0 && this.cells[this.stepFrom(cell, d, -1)] === stone) continue;
        const run = [cell];
        for (let next = this.stepFrom(cell, d, 1); next >= 0 && this.cells[next] === stone; next = this.stepFrom(next, d, 1)) run.push(next);
        if (run.length === k) lines.push(run);
      }
    }
    return lines;
  }

  /** The neighbour of cell along direction d (row, column, diagonal, anti-diagonal) in sense +-1, or -1 off the board. */
  private stepFrom(cell: number, d: number, sense: number): number {
    const n = this.n;
    const r = ((cell / n) | 0) + DIR_DR[d] * sense;
    const c = (cell % n) + DIR_DC[d] * sense;
    return r < 0 || r >= this.m || c < 0 || c >= n ? -1 : r * n + c;
  }

  /** Length of the run of `side` stones through `cell` along direction d, counting cell itself as side's. */
  private runThrough(cell: number, d: number, stone: number): number {
    const n = this.n;
    const r0 = (cell / n) | 0;
    const c0 = cell - r0 * n;
    const dr = DIR_DR[d];
    const dc = DIR_DC[d];
    const cells = this.cells;
    let length = 1;
    for (let r = r0 + dr, c = c0 + dc; r >= 0 && r < this.m && c >= 0 && c < n && cells[r * n + c] === stone; r += dr, c += dc) length++;
    for (let r = r0 - dr, c = c0 - dc; r >= 0 && r < this.m && c >= 0 && c < n && cells[r * n + c] === stone; r -= dr, c -= dc) length++;
    return length;
  }

  /** True when a stone of `side` on the empty `cell` would win (a line of K or more; exactly K under exactK). */
  winsAt(cell: number, side: number): boolean {
    const stone = side + 1;
    for (let d = 0; d < 4; d++) {
      const length = this.runThrough(cell, d, stone);
      if (this.exactK ? length === this.k : length >= this.k) return true;
    }
    return false;
  }

  terminal(): number {
    if (this.ply > 0 ? this.completedLine[this.ply - 1] === 1 : this.rootWon) return RESULT_LOSS;
    if (this.stones === this.cellCount) return RESULT_DRAW;
    return NOT_TERMINAL;
  }

  /** Every empty cell, row by row. */
  generateMoves(buf: Int32Array, offset: number): number {
    const cells = this.cells;
    let count = 0;
    for (let cell = 0, end = this.cellCount; cell < end; cell++) if (cells[cell] === EMPTY) buf[offset + count++] = cell;
    return count;
  }

  /** Candidate moves for the search: see moves.ts. */
  generateSearchMoves(buf: Int32Array, offset: number): number {
    if (this.patterns !== null) {
      // A board that is searched runs its make and unmake in WebAssembly (once; a no-op after).
      this.patterns.attachKernel();
      return generatePatternMoves(this, buf, offset);
    }
    return generateSearchCandidates(this, buf, offset);
  }

  /** The K = 5 search below the root in WebAssembly (search-kernel.ts): made once, when the position is first searched. */
  subtreeSearch(): SubtreeSearch | null {
    if (this.searchKernel === undefined) this.searchKernel = this.makeSearchKernel();
    return this.searchKernel;
  }

  /** The board's WebAssembly kernel for the root's pattern VCT (vct.ts): the search's, made here if not yet. */
  vctKernel(): MnkSearchKernel | null {
    if (this.searchKernel === undefined) this.searchKernel = this.makeSearchKernel();
    return this.searchKernel;
  }

  private makeSearchKernel(): MnkSearchKernel | null {
    const p = this.patterns;
    if (p === null || this.cellCount <= FULL_WIDTH_CELLS || !searchKernelApplies(this.cellCount, this.neighbourCells.length)) return null;
    p.attachKernel();
    const kernel = p.kernelHandle;
    if (kernel === null || kernel.search === null) return null;
    const count = this.cellCount;
    const zobrist = new Int32Array(count * 4);
    for (let s = 0; s < 2; s++) {
      for (let cell = 0; cell < count; cell++) {
        zobrist[(s * count + cell) * 2] = ZOBRIST[(s * MAX_CELLS + cell) * 2];
        zobrist[(s * count + cell) * 2 + 1] = ZOBRIST[(s * MAX_CELLS + cell) * 2 + 1];
      }
    }
    const views = MnkSearchKernel.load(kernel.search, kernel.buffer, {
      zobrist,
      neighbourStart: this.neighbourStart,
      neighbourCells: this.neighbourCells,
      neighbourRing1: this.neighbourRing1,
      near: this.near,
      nearRing1: this.nearRing1,
      candidates: this.candidates,
      candidateIndex: this.candidateIndex,
    });
    this.near = views.near;
    this.nearRing1 = views.nearRing1;
    this.candidates = views.candidates;
    this.candidateIndex = views.candidateIndex;
    const search = new MnkSearchKernel(this, kernel.search, kernel.buffer, ZOBRIST[SIDE_KEY_LO], ZOBRIST[SIDE_KEY_LO + 1]);
    kernel.link.bridge = search;
    return search;
  }

  makeMove(move: number): void {
    const completed = this.place(move, this.side);
    this.completedLine[this.ply] = completed ? 1 : 0;
    this.played[this.ply++] = move;
    this.side ^= 1;
    this.hashLo ^= ZOBRIST[SIDE_KEY_LO];
    this.hashHi ^= ZOBRIST[SIDE_KEY_LO + 1];
  }

  unmakeMove(move: number): void {
    this.ply--;
    this.side ^= 1;
    this.hashLo ^= ZOBRIST[SIDE_KEY_LO];
    this.hashHi ^= ZOBRIST[SIDE_KEY_LO + 1];
    this.remove(move, this.side);
  }

  /** Passes the move (solver only: "what does the opponent threaten?"). */
  makeNullMove(): void {
    this.completedLine[this.ply] = 0;
    this.played[this.ply++] = -1;
    this.side ^= 1;
    this.hashLo ^= ZOBRIST[SIDE_KEY_LO];
    this.hashHi ^= ZOBRIST[SIDE_KEY_LO + 1];
  }

  unmakeNullMove(): void {
    this.ply--;
    this.side ^= 1;
    this.hashLo ^= ZOBRIST[SIDE_KEY_LO];
    this.hashHi ^= ZOBRIST[SIDE_KEY_LO + 1];
  }

  /**
   * Restricts the search's moves in this exact position (same hash) to `moves`: the solver's list
   * of root moves not proven to lose. Cleared by passing an empty list.
   */
  setRootMoves(moves: Int32Array, count: number): void {
    this.rootMoveCount = count;
    if (count === 0) return;
    if (this.rootMoves.length < count) this.rootMoves = new Int32Array(this.cellCount);
    for (let i = 0; i < count; i++) this.rootMoves[i] = moves[i];
    this.rootHashLo = this.hashLo;
    this.rootHashHi = this.hashHi;
  }

  /** The solver's root move list when this is the position it was computed for, else 0. */
  writeRootMoves(buf: Int32Array, offset: number): number {
    if (this.rootMoveCount === 0 || this.hashLo !== this.rootHashLo || this.hashHi !== this.rootHashHi) return 0;
    const count = this.rootMoveCount;
    for (let i = 0; i < count; i++) buf[offset + i] = this.rootMoves[i];
    return count;
  }

  evaluate(): number {
    return this.patterns !== null ? evaluatePatterns(this) : evaluatePosition(this);
  }

  /** The K = 5 pattern path's selective search; none on the small boards whose window lists prove results. */
  get selectiveSearch(): SelectiveSearch | null {
    return this.patterns !== null && this.cellCount > FULL_WIDTH_CELLS ? patternSelectiveSearch() : null;
  }

  /** No pruning by the static evaluation in the last empties (the window lists prove results there) or under a threat. */
  quietForPruning(): boolean {
    const p = this.patterns;
    if (p === null || this.cellCount - this.stones <= FULL_WIDTH_EMPTIES) return false;
    const o = 1 - this.side;
    return p.count(o, F_FIVE) === 0 && p.count(o, F_WIN4) === 0 && p.count(this.side, F_FIVE) === 0;
  }

  moveOrderScore(move: number): number {
    return this.patterns !== null ? patternHint(this, move) : moveOrderHint(this, move);
  }

  /** Number of windows of `side` at `level` (LEVEL_FOUR / LEVEL_THREE). */
  threatCount(side: number, level: number): number {
    if (this.windowsStale) this.syncWindows();
    return this.setSize[side * 2 + level];
  }

  /** The i-th window of `side` at `level`. */
  threatWindow(side: number, level: number, i: number): number {
    if (this.windowsStale) this.syncWindows();
    return this.setItems[(side * 2 + level) * this.geometry.windowCount + i];
  }

  /** First empty cell of window w (-1 if it is full). */
  emptyCellOf(w: number): number {
    const g = this.geometry;
    const step = g.windowStep[w];
    for (let i = 0, cell = g.windowStart[w]; i < this.k; i++, cell += step) if (this.cells[cell] === EMPTY) return cell;
    return -1;
  }

  /** Adds a stone; returns true when it completes a winning line. */
  private place(cell: number, s: number): boolean {
    const patterns = this.patterns;
    // The pattern flags know the rule: a five cell of s is exactly where this stone wins.
    const fiveCell = patterns !== null && (patterns.flags(cell, s) & F_FIVE) !== 0;
    this.cells[cell] = s + 1;
    this.stones++;
    if (patterns !== null) patterns.place(cell, s);
    const zi = (s * MAX_CELLS + cell) * 2;
    this.hashLo ^= ZOBRIST[zi];
    this.hashHi ^= ZOBRIST[zi + 1];
    this.updateCandidatesAfterPlace(cell);
    if (this.windowsLazy) {
      this.windowsStale = true;
      return fiveCell;
    }
    let completed = this.placeInWindows(cell, s);
    // Under exactK a completed window may be part of an overline: it wins only if some run is exactly K.
    if (completed && this.exactK) {
      completed = false;
      for (let d = 0; d < 4 && !completed; d++) completed = this.runThrough(cell, d, s + 1) === this.k;
    }
    return completed;
  }

  /** The window part of place (the stone is on the board): returns true when it completes a K-window. */
  private placeInWindows(cell: number, s: number): boolean {
    const g = this.geometry;
    const counts = this.counts;
    const weights = this.weights;
    const k = this.k;
    const o = 1 - s;
    let completed = false;
    for (let i = g.cellWindowStart[cell], end = g.cellWindowStart[cell + 1]; i < end; i++) {
      const w = g.cellWindows[i];
      const ownAt = 2 * w + s;
      const own = counts[ownAt];
      const opp = counts[ownAt ^ 1];
      counts[ownAt] = own + 1;
      if (own === 0) this.openWindows[o]--;
      if (opp === 0) {
        this.lineScore[s] += weights[own + 1] - weights[own];
        if (own + 1 === k) completed = true;
        // Threat sets only hold windows K-2 or K-1 full: sparser windows never change set.
        if (own + 3 >= k) this.updateLevel(s, w, own + 1);
      } else if (own === 0) {
        // The window now holds both colours: nobody can complete it any more.
        this.lineScore[o] -= weights[opp];
        this.liveWindows--;
        if (opp + 2 >= k) this.updateLevel(o, w, -1);
      }
    }
    return completed;
  }

  private remove(cell: number, s: number): void {
    this.cells[cell] = EMPTY;
    this.stones--;
    if (this.patterns !== null) this.patterns.remove(cell, s);
    const zi = (s * MAX_CELLS + cell) * 2;
    this.hashLo ^= ZOBRIST[zi];
    this.hashHi ^= ZOBRIST[zi + 1];
    this.updateCandidatesAfterRemove(cell);
    if (this.windowsLazy) this.windowsStale = true;
    else this.removeFromWindows(cell, s);
  }

  /** The window part of remove (the stone is already off the board). */
  private removeFromWindows(cell: number, s: number): void {
    const g = this.geometry;
    const counts = this.counts;
    const weights = this.weights;
    const k = this.k;
    const o = 1 - s;
    for (let i = g.cellWindowStart[cell], end = g.cellWindowStart[cell + 1]; i < end; i++) {
      const w = g.cellWindows[i];
      const ownAt = 2 * w + s;
      const own = counts[ownAt] - 1;
      const opp = counts[ownAt ^ 1];
      counts[ownAt] = own;
      if (own === 0) this.openWindows[o]++;
      if (opp === 0) {
        this.lineScore[s] -= weights[own + 1] - weights[own];
        if (own + 3 >= k) this.updateLevel(s, w, own);
      } else if (own === 0) {
        this.lineScore[o] += weights[opp];
        this.liveWindows++;
        if (opp + 2 >= k) this.updateLevel(o, w, opp);
      }
    }
  }

  /** Moves (side, window) to the threat set its own-stone count puts it in (-1: none). */
  private updateLevel(s: number, w: number, ownCount: number): void {
    const k = this.k;
    const level = ownCount <= 0 ? -1 : ownCount === k - 1 ? LEVEL_FOUR : ownCount === k - 2 ? LEVEL_THREE : -1;
    const W = this.geometry.windowCount;
    const key = s * W + w;
    const at = this.setIndex[key];
    if (at >= 0) {
      const currentSet = this.currentSetOf(s, w, at);
      if (currentSet === s * 2 + level) return;
      // Swap-remove from the current set.
      const base = currentSet * W;
      const last = this.setItems[base + --this.setSize[currentSet]];
      this.setItems[base + at] = last;
      this.setIndex[s * W + last] = at;
      this.setIndex[key] = -1;
    }
    if (level >= 0) {
      const set = s * 2 + level;
      const pos = this.setSize[set]++;
      this.setItems[set * W + pos] = w;
      this.setIndex[key] = pos;
    }
  }

  /** Which of side s's two sets holds window w at index `at`. */
  private currentSetOf(s: number, w: number, at: number): number {
    const W = this.geometry.windowCount;
    const four = s * 2 + LEVEL_FOUR;
    return at < this.setSize[four] && this.setItems[four * W + at] === w ? four : s * 2 + LEVEL_THREE;
  }

  private updateCandidatesAfterPlace(cell: number): void {
    this.removeCandidate(cell);
    const cells = this.neighbourCells;
    const ring1 = this.neighbourRing1;
    const near = this.near;
    const nearRing1 = this.nearRing1;
    for (let i = this.neighbourStart[cell], end = this.neighbourStart[cell + 1]; i < end; i++) {
      const nb = cells[i];
      nearRing1[nb] += ring1[i];
      if (near[nb]++ === 0 && this.cells[nb] === EMPTY) this.addCandidate(nb);
    }
  }

  private updateCandidatesAfterRemove(cell: number): void {
    const cells = this.neighbourCells;
    const ring1 = this.neighbourRing1;
    const near = this.near;
    const nearRing1 = this.nearRing1;
    for (let i = this.neighbourStart[cell], end = this.neighbourStart[cell + 1]; i < end; i++) {
      const nb = cells[i];
      nearRing1[nb] -= ring1[i];
      if (--near[nb] === 0 && this.candidateIndex[nb] >= 0) this.removeCandidate(nb);
    }
    if (near[cell] > 0) this.addCandidate(cell);
  }
  private addCandidate(cell: number): void {
    this.candidateIndex[cell] = this.candidateCount;
    this.candidates[this.candidateCount++] = cell;
  }

  private removeCandidate(cell: number): void {
    const at = this.candidateIndex[cell];
    if (at < 0) return;
    const last = this.candidates[--this.candidateCount];
    this.candidates[at] = last;
    this.candidateIndex[last] = at;
    this.candidateIndex[cell] = -1;
  }
}
