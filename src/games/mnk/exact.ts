/**
 * Exact solver for small boards and late positions: full-width negamax alpha-beta with its own
 * transposition table and distance-to-end scores, to a proven win, loss or draw.
 *
 * Full width, but never blind: a K-1 window of the mover wins at once, an enemy K-1 window must be
 * blocked (two distinct ones lose), a cell lying only in dead windows is skipped (a stone there is
 * worth a pass, and an extra stone never hurts its owner), a side with no open window left cannot
 * win (bounding the score by 0), and nobody having one is a draw. In the first plies, moves that
 * a symmetry of the board maps onto each other are searched once (symmetry.ts).
 *
 * The outcome comes from a null window around 0 (as cheap as a win/draw/loss search); a win or
 * loss is then searched again with a full window for its exact distance when time allows.
 */
import { INFINITE_SCORE, NOT_TERMINAL, PROVEN_THRESHOLD, RESULT_DRAW, WIN_SCORE } from '../../search/score.js';
import { EMPTY, LEVEL_FOUR, type MnkPosition } from './position.js';
import { moveOrderHint } from './evaluation.js';
import { isLiveCell, writeBlockingCells } from './moves.js';
import type { StopCheck } from './threats.js';
import { Symmetries } from './symmetry.js';

/** Moves equivalent by a board symmetry are pruned while this few stones are down. */
const SYMMETRY_STONES = 4;

const TT_BITS = 19;
const TT_MASK = (1 << TT_BITS) - 1;
const TT_ENTRY = 4;
const BOUND_UPPER = 1;
const BOUND_LOWER = 2;
const BOUND_EXACT = 3;
/** Clock polls: a node costs up to ~20 us (ordering hints of every move), so every 256 nodes. */
const CHECK_MASK = 255;
/** Long lines make every node costlier (hints and liveness scan 4K windows per cell): poll more often. */
const LONG_LINE_K = 12;
const LONG_LINE_CHECK_MASK = 31;

export interface ExactResult {
  /** Score for the side to move: WIN_SCORE - plies, -(WIN_SCORE - plies) or 0 (draw). */
  score: number;
  move: number;
  pv: number[];
  /** False when the score is a proven win/loss but its distance is only an upper/lower bound. */
  exactDistance: boolean;
}

export class ExactSolver {
  nodes = 0;
  stopped = false;

  private nodeLimit = Infinity;
  private checkMask = CHECK_MASK;
  /** The root's empty cells: nodes scan these, not the whole (possibly 100x100) board. */
  private rootEmpties = new Int32Array(0);
  private rootEmptyCount = 0;
  private pos!: MnkPosition;
  private stop: StopCheck = { shouldStop: () => false };
  private stride = 0;
  private moves = new Int32Array(0);
  private order = new Int32Array(0);
  /** [hashHi, hashLo, score (node-relative), bound | (move + 1) << 2]. */
  private table: Int32Array | null = null;
  private symmetries: Symmetries | null = null;

  /** Proves the value of `pos` (side to move's view), or null when stopped first. */
  solve(pos: MnkPosition, stop: StopCheck, nodeLimit = Infinity): ExactResult | null {
    this.nodeLimit = nodeLimit;
    this.pos = pos;
    this.stop = stop;
    this.nodes = 0;
    this.stopped = false;
    const empties = pos.cellCount - pos.stones;
    this.checkMask = pos.k >= LONG_LINE_K ? LONG_LINE_CHECK_MASK : CHECK_MASK;
    if (this.rootEmpties.length < empties) this.rootEmpties = new Int32Array(empties);
    this.rootEmptyCount = 0;
    for (let cell = 0; cell < pos.cellCount; cell++) if (pos.cells[cell] === EMPTY) this.rootEmpties[this.rootEmptyCount++] = cell;
    // Moves come from the root's empty cells only: a node lists at most `empties` of them.
    this.stride = empties + 1;
    const need = this.stride * (empties + 2);
    if (this.moves.length < need) {
      this.moves = new Int32Array(need);
      this.order = new Int32Array(need);
    }
    // Symmetry pruning only applies while few stones are down (tiny boards): build the maps then only.
    const symmetric = pos.stones <= SYMMETRY_STONES;
    if (symmetric && (this.symmetries === null || this.symmetries.m !== pos.m || this.symmetries.n !== pos.n)) {
      this.symmetries = new Symmetries(pos.m, pos.n);
    }
    if (this.table === null) this.table = new Int32Array((TT_MASK + 1) * TT_ENTRY);
    else this.table.fill(0);

    if (stop.shouldStop()) return null;
    const outcome = this.negamax(-1, 1, 0);
    if (this.stopped) return null;
    const move = this.tableMove();
    if (outcome === 0) return { score: 0, move, pv: this.readPv(), exactDistance: true };
    // Distance of the win (or loss): full window on the proven side.
    const exact = outcome > 0 ? this.negamax(0, INFINITE_SCORE, 0) : this.negamax(-INFINITE_SCORE, 0, 0);
    if (this.stopped) {
      // Keep the proven outcome; the distance is the longest possible game.
      const bound = WIN_SCORE - empties;
      return { score: outcome > 0 ? bound : -bound, move, pv: [move], exactDistance: false };
    }
    return { score: exact, move: this.tableMove(), pv: this.readPv(), exactDistance: true };
  }

  private negamax(alpha: number, beta: number, ply: number): number {
    const pos = this.pos;
    const status = pos.terminal();
    if (status !== NOT_TERMINAL) return status === RESULT_DRAW ? 0 : -(WIN_SCORE - ply);
    this.nodes++;
    if ((this.nodes & this.checkMask) === 0 && (this.stop.shouldStop() || this.nodes >= this.nodeLimit)) this.stopped = true;
    if (this.stopped) return 0;

    const a = pos.side;
    const o = 1 - a;
    if (pos.threatCount(a, LEVEL_FOUR) > 0) return WIN_SCORE - ply - 1;
    if (pos.openWindows[a] === 0 && pos.openWindows[o] === 0) return 0;
    const base = ply * this.stride;
    const buf = this.moves;
    let count = writeBlockingCells(pos, o, buf, base);
    if (count >= 2) return -(WIN_SCORE - ply - 2);

    // Bounds that need no search: mate distance, and sides that can no longer win.
    let lower = -(WIN_SCORE - ply - 2);
    let upper = WIN_SCORE - ply - 3;
    if (pos.openWindows[a] === 0) upper = 0;
    if (pos.openWindows[o] === 0) lower = 0;
    if (lower >= beta) return lower;
    if (upper <= alpha) return upper;
    if (lower > alpha) alpha = lower;
    if (upper < beta) beta = upper;

    const alphaOrig = alpha;
    const table = this.table!;
    const at = (pos.hashLo & TT_MASK) * TT_ENTRY;
    let ttMove = -1;
    if (table[at] === pos.hashHi && table[at + 1] === pos.hashLo && table[at + 3] !== 0) {
      const meta = table[at + 3];
      ttMove = (meta >> 2) - 1;
      const score = fromTable(table[at + 2], ply);
      const bound = meta & 3;
      if (bound === BOUND_EXACT || (bound === BOUND_LOWER && score >= beta) || (bound === BOUND_UPPER && score <= alpha)) {
        return score;
      }
    }

    if (count === 0) count = this.writeUsefulCells(base);
    if (pos.stones <= SYMMETRY_STONES && count > 1) count = this.symmetries!.pruneMoves(pos, buf, base, count);
    this.orderMoves(base, count, ttMove);
    let best = -INFINITE_SCORE;
    let bestMove = buf[base];
    for (let i = 0; i < count; i++) {
      const move = buf[base + i];
      pos.makeMove(move);
      const score = -this.negamax(-beta, -alpha, ply + 1);
      pos.unmakeMove(move);
      if (this.stopped) return 0;
      if (score > best) {
        best = score;
        bestMove = move;
        if (score > alpha) {
          alpha = score;
          if (score >= beta) break;
        }
      }
    }
    const bound = best >= beta ? BOUND_LOWER : best > alphaOrig ? BOUND_EXACT : BOUND_UPPER;
    table[at] = pos.hashHi;
    table[at + 1] = pos.hashLo;
    table[at + 2] = toTable(best, ply);
    table[at + 3] = bound | ((bestMove + 1) << 2);
    return best;
  }

  /** Empty cells in at least one open window; one empty cell when none is (every move draws). */
  private writeUsefulCells(base: number): number {
    const pos = this.pos;
    const buf = this.moves;
    let count = 0;
    let anyEmpty = -1;
    const empties = this.rootEmpties;
    for (let i = 0; i < this.rootEmptyCount; i++) {
      const cell = empties[i];
      if (pos.cells[cell] !== EMPTY) continue;
      anyEmpty = cell;
      if (isLiveCell(pos, cell)) buf[base + count++] = cell;
    }
    if (count === 0) buf[base + count++] = anyEmpty;
    return count;
  }

  private orderMoves(base: number, count: number, ttMove: number): void {
    const buf = this.moves;
    const order = this.order;
    for (let i = 0; i < count; i++) {
      const move = buf[base + i];
      order[base + i] = move === ttMove ? 0x7fffffff : moveOrderHint(this.pos, move);
    }
    for (let i = 1; i < count; i++) {
      const m = buf[base + i];
      const s = order[base + i];
      let j = i - 1;
      while (j >= 0 && order[base + j] < s) {
        buf[base + j + 1] = buf[base + j];
        order[base + j + 1] = order[base + j];
        j--;
      }
      buf[base + j + 1] = m;
      order[base + j + 1] = s;
    }
  }

  private tableMove(): number {
    const pos = this.pos;
    const table = this.table!;
    const at = (pos.hashLo & TT_MASK) * TT_ENTRY;
    if (table[at] === pos.hashHi && table[at + 1] === pos.hashLo && table[at + 3] !== 0) return (table[at + 3] >> 2) - 1;
    return -1;
  }

  /** Principal variation from the table (bounded by the empties; stops at a missing entry). */
  private readPv(): number[] {
    const pos = this.pos;
    const pv: number[] = [];
    const limit = pos.cellCount - pos.stones;
    while (pv.length < limit && pos.terminal() === NOT_TERMINAL) {
      const move = this.tableMove();
      if (move < 0 || pos.cells[move] !== EMPTY) break;
      pv.push(move);
      pos.makeMove(move);
    }
    for (let i = pv.length - 1; i >= 0; i--) pos.unmakeMove(pv[i]);
    return pv;
  }
}

function toTable(score: number, ply: number): number {
  if (score >= PROVEN_THRESHOLD) return score + ply;
  if (score <= -PROVEN_THRESHOLD) return score - ply;
  return score;
}

function fromTable(score: number, ply: number): number {
  if (score >= PROVEN_THRESHOLD) return score - ply;
  if (score <= -PROVEN_THRESHOLD) return score + ply;
  return score;
}
