/**
 * The mutable Hadron position the search walks.
 *
 * Per cell: its piece (EMPTY / WHITE / BLACK) and `balance` = #White - #Black among its orthogonal
 * neighbours. A cell is playable iff it is empty and its balance is 0, for both colours alike.
 * Placing a piece changes only the balance of its (at most 4) neighbours, so the playable set is
 * a 3-word bitboard (cells 0-31, 32-63, 64-80) updated at five cells per move, and make/unmake
 * need no undo stack: undoing a placement restores every balance exactly.
 *
 * The side to move follows from the counts (White iff #W == #B); side 0 is White.
 */
import type { SearchPosition } from '../types.js';
import { NOT_TERMINAL, RESULT_LOSS } from '../../search/score.js';
import { zobristKeys } from '../../core/random.js';
import { BLACK, EMPTY, type Geometry, MAX_CELLS, NEIGHBOUR_SLOTS, WHITE, geometryFor } from './geometry.js';
import { keySalt } from '../../search/tt.js';

export const PROFILE_DEFAULT = 0;
export const PROFILE_SEED = 1;

/** Keys per (cell, colour) as lo/hi pairs, then the side key pair, then per-shape keys. */
const ZOBRIST = zobristKeys(MAX_CELLS * 4 + 2 + 2 * 16 * 2, 0x4861_6472);
const SIDE_KEY = MAX_CELLS * 4;
const SHAPE_KEY = SIDE_KEY + 2;

/** Anything that scores a position for its side to move (the profiles' evaluations). */
export interface PositionEvaluator {
  evaluate(pos: HadronPosition): number;
}

export class HadronPosition implements SearchPosition {
  hashLo = 0;
  hashHi = 0;
  /** Game and board shape, mixed into the search's TT keys. */
  readonly keySalt: number;
  side = 0;
  readonly moveSpace = MAX_CELLS;
  readonly maxMoves: number;

  readonly geometry: Geometry;
  readonly rows: number;
  readonly cols: number;
  readonly cellCount: number;
  readonly profile: number;
  readonly seed: number;

  /** EMPTY, WHITE or BLACK per cell. */
  readonly cells = new Uint8Array(MAX_CELLS);
  /** #White - #Black among the orthogonal neighbours, per cell. */
  readonly balance = new Int8Array(MAX_CELLS);
  /** Playable cells as a bitboard: bit (cell & 31) of word (cell >> 5). */
  readonly playable = new Int32Array(3);
  playableCount = 0;
  /** Pieces on the board (= plies played from the empty board). */
  pieces = 0;

  /** Set by the engine once the profile's evaluator exists (it needs the position's shape). */
  evaluator: PositionEvaluator | null = null;

  constructor(rows: number, cols: number, cells: ArrayLike<number>, profile = PROFILE_DEFAULT, seed = 0) {
    this.geometry = geometryFor(rows, cols);
    this.rows = rows;
    this.cols = cols;
    this.cellCount = rows * cols;
    this.keySalt = keySalt('hadron', rows, cols);
    this.maxMoves = this.cellCount;
    this.profile = profile;
    this.seed = seed;
    let lo = ZOBRIST[SHAPE_KEY + rows * 2] ^ ZOBRIST[SHAPE_KEY + 32 + cols * 2];
    let hi = ZOBRIST[SHAPE_KEY + rows * 2 + 1] ^ ZOBRIST[SHAPE_KEY + 32 + cols * 2 + 1];
    let whites = 0;
    let blacks = 0;
    for (let cell = 0; cell < this.cellCount; cell++) {
      const piece = cells[cell];
      this.cells[cell] = piece;
      if (piece === EMPTY) continue;
      if (piece === WHITE) whites++;
      else blacks++;
      const key = (cell * 2 + piece - 1) * 2;
      lo ^= ZOBRIST[key];
      hi ^= ZOBRIST[key + 1];
      const delta = piece === WHITE ? 1 : -1;
      const g = this.geometry;
      for (let k = 0; k < g.neighbourCount[cell]; k++) this.balance[g.neighbours[cell * NEIGHBOUR_SLOTS + k]] += delta;
    }
    this.pieces = whites + blacks;
    this.side = whites === blacks ? 0 : 1;
    if (this.side === 1) {
      lo ^= ZOBRIST[SIDE_KEY];
      hi ^= ZOBRIST[SIDE_KEY + 1];
    }
    this.hashLo = lo;
    this.hashHi = hi;
    for (let cell = 0; cell < this.cellCount; cell++) {
      if (this.cells[cell] === EMPTY && this.balance[cell] === 0) {
        this.playable[cell >>> 5] |= 1 << (cell & 31);
        this.playableCount++;
      }
    }
  }

  /** The side to move has lost when it has no playable cell; otherwise the game goes on. */
  terminal(): number {
    return this.playableCount === 0 ? RESULT_LOSS : NOT_TERMINAL;
  }

  generateMoves(buf: Int32Array, offset: number): number {
    let n = offset;
    for (let w = 0; w < 3; w++) {
      let bits = this.playable[w];
      const base = w << 5;
      while (bits !== 0) {
        const low = bits & -bits;
        buf[n++] = base + 31 - Math.clz32(low);
        bits ^= low;
      }
    }
    return n - offset;
  }

  isPlayable(cell: number): boolean {
    return (this.playable[cell >>> 5] & (1 << (cell & 31))) !== 0;
  }

  makeMove(move: number): void {
    const side = this.side;
    const delta = side === 0 ? 1 : -1;
    this.cells[move] = side + 1;
    this.playable[move >>> 5] &= ~(1 << (move & 31));
    let count = this.playableCount - 1;
    const g = this.geometry;
    const base = move * NEIGHBOUR_SLOTS;
    const end = base + g.neighbourCount[move];
    const balance = this.balance;
    const cells = this.cells;
    const playable = this.playable;
    for (let k = base; k < end; k++) {
      const q = g.neighbours[k];
      const b = balance[q] + delta;
      balance[q] = b;
      if (cells[q] !== EMPTY) continue;
      if (b === 0) {
        playable[q >>> 5] |= 1 << (q & 31);
        count++;
      } else if (b === delta) {
        // It was balanced (playable) before this piece arrived.
        playable[q >>> 5] &= ~(1 << (q & 31));
        count--;
      }
    }
    this.playableCount = count;
    this.pieces++;
    const key = (move * 2 + side) * 2;
    this.hashLo ^= ZOBRIST[key] ^ ZOBRIST[SIDE_KEY];
    this.hashHi ^= ZOBRIST[key + 1] ^ ZOBRIST[SIDE_KEY + 1];
    this.side = side ^ 1;
  }

  unmakeMove(move: number): void {
    const side = this.side ^ 1;
    this.side = side;
    const delta = side === 0 ? 1 : -1;
    this.cells[move] = EMPTY;
    let count = this.playableCount + 1;
    const g = this.geometry;
    const base = move * NEIGHBOUR_SLOTS;
    const end = base + g.neighbourCount[move];
    const balance = this.balance;
    const cells = this.cells;
    const playable = this.playable;
    for (let k = base; k < end; k++) {
      const q = g.neighbours[k];
      const b = balance[q] - delta;
      balance[q] = b;
      if (cells[q] !== EMPTY) continue;
      if (b === 0) {
        playable[q >>> 5] |= 1 << (q & 31);
        count++;
      } else if (b === -delta) {
        playable[q >>> 5] &= ~(1 << (q & 31));
        count--;
      }
    }
    // The cell's own balance never changed while it was occupied (its later neighbours are undone first).
    playable[move >>> 5] |= 1 << (move & 31);
    this.playableCount = count;
    this.pieces--;
    const key = (move * 2 + side) * 2;
    this.hashLo ^= ZOBRIST[key] ^ ZOBRIST[SIDE_KEY];
    this.hashHi ^= ZOBRIST[key + 1] ^ ZOBRIST[SIDE_KEY + 1];
  }

  evaluate(): number {
    return this.evaluator === null ? 0 : this.evaluator.evaluate(this);
  }

  /** Hash recomputed from scratch (tests compare it with the incremental one). */
  computeHash(): [number, number] {
    let lo = ZOBRIST[SHAPE_KEY + this.rows * 2] ^ ZOBRIST[SHAPE_KEY + 32 + this.cols * 2];
    let hi = ZOBRIST[SHAPE_KEY + this.rows * 2 + 1] ^ ZOBRIST[SHAPE_KEY + 32 + this.cols * 2 + 1];
    for (let cell = 0; cell < this.cellCount; cell++) {
      const piece = this.cells[cell];
      if (piece === EMPTY) continue;
      const key = (cell * 2 + piece - 1) * 2;
      lo ^= ZOBRIST[key];
      hi ^= ZOBRIST[key + 1];
    }
    if (this.side === 1) {
      lo ^= ZOBRIST[SIDE_KEY];
      hi ^= ZOBRIST[SIDE_KEY + 1];
    }
    return [lo, hi];
  }

  /** A copy with the same pieces (and a fresh evaluator slot). */
  clone(profile = this.profile, seed = this.seed): HadronPosition {
    return new HadronPosition(this.rows, this.cols, this.cells.subarray(0, this.cellCount), profile, seed);
  }
}

/** Bulk-counting perft: the legal count at the last ply is read off the incremental set. */
export function fastPerft(pos: HadronPosition, depth: number): number {
  const buffer = new Int32Array((depth + 1) * pos.cellCount);
  return perftWalk(pos, depth, buffer, 0);
}

function perftWalk(pos: HadronPosition, depth: number, buffer: Int32Array, offset: number): number {
  if (depth === 0) return 1;
  if (depth === 1) return pos.playableCount;
  const count = pos.generateMoves(buffer, offset);
  const end = offset + count;
  let total = 0;
  for (let i = offset; i < end; i++) {
    const move = buffer[i];
    pos.makeMove(move);
    total += perftWalk(pos, depth - 1, buffer, end);
    pos.unmakeMove(move);
  }
  return total;
}

export { BLACK, EMPTY, WHITE };
