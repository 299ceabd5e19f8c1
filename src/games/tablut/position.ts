/**
 * The mutable Tablut position the search walks: board, piece lists, line-occupancy masks,
 * incremental Zobrist hash, make/unmake with capture undo, and the repetition record the server
 * uses for draws.
 *
 * Rules (RULES.md, i.e. the Tablut Challenge server's code):
 * - captures are custodial, made only by the side that moved, only next to the moved piece;
 * - White captures a black pawn against WHITE, KING, the empty THRONE or a camp other than the
 *   four camp centres; Black captures a white pawn against BLACK, the throne square (empty or
 *   not) or any camp;
 * - the king is captured by 4 blacks on the throne, by the 3 non-throne neighbours next to the
 *   throne, elsewhere like a pawn against BLACK or any camp. It stays on the board (BLACKWIN);
 * - the king on any edge square wins (WHITEWIN);
 * - a position (board + side to move) reached after a move draws when it repeats one reached after
 *   a move since the last capture (the position right after a capture included, the initial
 *   position excluded). A win on the same move takes precedence.
 *
 * Nothing here allocates after construction.
 */
import { zobristKeys } from '../../core/random.js';
import { MAX_PLY, NOT_TERMINAL, RESULT_DRAW, RESULT_LOSS } from '../../search/score.js';
import type { SearchPosition } from '../types.js';
import type { TablutBoardView } from './board-view.js';
import {
  BEYOND,
  BLACK,
  CAMP,
  CAMP_ANVIL_FOR_WHITE,
  EMPTY,
  ESCAPE,
  KING,
  MOVE_SPACE,
  NEIGHBOUR,
  SIDE_BLACK,
  SIDE_WHITE,
  SQUARES,
  THRONE,
  THRONE_SQUARE,
  THRONE_ZONE,
  WHITE,
  COL,
  ROW,
  MAX_BLACK_PAWNS,
  MAX_MOVES,
  MAX_WHITE_PAWNS,
  STATUS_BLACK_WON,
  STATUS_DRAW,
  STATUS_ONGOING,
  STATUS_WHITE_WON,
} from './board.js';
import { generatePieceMoves } from './movegen.js';
import { generateForcedOrAll, moveOrderHint } from './tactics.js';
import { keySalt } from '../../search/tt.js';

const TABLUT_SALT = keySalt('tablut', 9, 9);

export { MAX_BLACK_PAWNS, MAX_MOVES, MAX_WHITE_PAWNS, STATUS_BLACK_WON, STATUS_DRAW, STATUS_ONGOING, STATUS_WHITE_WON };
/** Plies of make/unmake head-room above the game record (the search never goes deeper). */
export const SEARCH_HEADROOM = MAX_PLY + 16;

const ZOBRIST_SEED = 0x7ab1e7;
/** Keys: [piece 1..3][square] for the low half, the same again for the high half, then the side key. */
const KEYS = zobristKeys(2 * 4 * SQUARES + 2, ZOBRIST_SEED);
const HI_OFFSET = 4 * SQUARES;
const SIDE_KEY_LO = KEYS[2 * 4 * SQUARES];
const SIDE_KEY_HI = KEYS[2 * 4 * SQUARES + 1];

/** Heuristic evaluation plugged into a position (profiles); must not allocate. */
export interface TablutEvaluator {
  /** Value for the side to move; (alpha, beta) is the search's window for it (see SearchPosition). */
  evaluate(pos: TablutPosition, alpha: number, beta: number): number;
}

export class TablutPosition implements SearchPosition, TablutBoardView {
  hashLo = 0;
  hashHi = 0;
  /** The game (one board shape), mixed into the search's TT keys. */
  readonly keySalt = TABLUT_SALT;
  side = SIDE_WHITE;
  readonly moveSpace = MOVE_SPACE;
  readonly maxMoves = MAX_MOVES;

  readonly board = new Uint8Array(SQUARES);
  kingSquare = -1;
  status = STATUS_ONGOING;

  /** Square lists of the white pawns (king excluded) and black pawns; listIndex maps back. */
  readonly whitePawns = new Int8Array(MAX_WHITE_PAWNS);
  whiteCount = 0;
  readonly blackPawns = new Int8Array(MAX_BLACK_PAWNS);
  blackCount = 0;
  private readonly listIndex = new Int8Array(SQUARES);

  /** Bit c of rowOccupied[r] / bit r of colOccupied[c]: square (r, c) is not EMPTY. */
  readonly rowOccupied = new Uint16Array(9);
  readonly colOccupied = new Uint16Array(9);

  /** Hashes of the positions reached after each move; the draw record is [recordStart, recordCount). */
  private recordLo: Int32Array;
  private recordHi: Int32Array;
  recordCount = 0;
  recordStart = 0;

  /** Undo stack, one entry per made move. */
  private ply = 0;
  private undoStatus: Uint8Array;
  private undoRecordStart: Int32Array;
  private undoCaptureCount: Uint8Array;
  private undoCaptureSquare: Int8Array;
  private undoCaptureIndex: Int8Array;

  /** Side to move when the position was set up (the engine's own side, for one-sided profiles). */
  rootSide = SIDE_WHITE;
  evaluator: TablutEvaluator | null = null;

  /**
   * @param capacity moves expected on top of the record (game replay + search depth). Games played
   * past it (arena, client loops) grow the stacks, which the search itself never needs.
   */
  constructor(capacity: number) {
    this.recordLo = new Int32Array(capacity + 1);
    this.recordHi = new Int32Array(capacity + 1);
    this.undoStatus = new Uint8Array(capacity);
    this.undoRecordStart = new Int32Array(capacity);
    this.undoCaptureCount = new Uint8Array(capacity);
    this.undoCaptureSquare = new Int8Array(capacity * 3);
    this.undoCaptureIndex = new Int8Array(capacity * 3);
  }

  private grow(): void {
    const capacity = Math.max(16, this.undoStatus.length * 2);
    const widen = <T extends Int32Array | Uint8Array | Int8Array>(old: T, fresh: T): T => {
      fresh.set(old);
      return fresh;
    };
    this.recordLo = widen(this.recordLo, new Int32Array(capacity + this.recordLo.length));
    this.recordHi = widen(this.recordHi, new Int32Array(capacity + this.recordHi.length));
    this.undoStatus = widen(this.undoStatus, new Uint8Array(capacity));
    this.undoRecordStart = widen(this.undoRecordStart, new Int32Array(capacity));
    this.undoCaptureCount = widen(this.undoCaptureCount, new Uint8Array(capacity));
    this.undoCaptureSquare = widen(this.undoCaptureSquare, new Int8Array(capacity * 3));
    this.undoCaptureIndex = widen(this.undoCaptureIndex, new Int8Array(capacity * 3));
  }

  /** Sets up a board (cell codes) with an empty repetition record. Trusted input. */
  load(cells: ArrayLike<number>, side: number, status: number): void {
    this.board.set(cells);
    this.side = side;
    this.status = status;
    this.whiteCount = 0;
    this.blackCount = 0;
    this.kingSquare = -1;
    this.rowOccupied.fill(0);
    this.colOccupied.fill(0);
    this.recordCount = 0;
    this.recordStart = 0;
    this.ply = 0;
    this.rootSide = side;
    for (let s = 0; s < SQUARES; s++) {
      const cell = this.board[s];
      if (cell === EMPTY) continue;
      this.setOccupied(s);
      if (cell === WHITE) {
        this.listIndex[s] = this.whiteCount;
        this.whitePawns[this.whiteCount++] = s;
      } else if (cell === BLACK) {
        this.listIndex[s] = this.blackCount;
        this.blackPawns[this.blackCount++] = s;
      } else if (cell === KING) {
        this.kingSquare = s;
      }
    }
    this.hashLo = 0;
    this.hashHi = 0;
    this.recomputeHash();
  }

  /** Adds the current position to the repetition record (it was reached by a move). */
  recordCurrent(): void {
    if (this.recordCount + 1 >= this.recordLo.length) this.grow();
    this.recordLo[this.recordCount] = this.hashLo;
    this.recordHi[this.recordCount] = this.hashHi;
    this.recordCount++;
  }

  /** Restores a record saved by `recordEntries` (snapshots). */
  loadRecord(entries: ArrayLike<number>, offset: number, count: number, start: number): void {
    while (this.recordLo.length < count + 1) this.grow();
    for (let i = 0; i < count; i++) {
      this.recordLo[i] = entries[offset + 2 * i];
      this.recordHi[i] = entries[offset + 2 * i + 1];
    }
    this.recordCount = count;
    this.recordStart = start;
  }

  /** Writes the live part of the record (from recordStart) as lo/hi pairs; returns how many. */
  recordEntries(out: Int32Array, offset: number): number {
    let n = 0;
    for (let i = this.recordStart; i < this.recordCount; i++, n++) {
      out[offset + 2 * n] = this.recordLo[i];
      out[offset + 2 * n + 1] = this.recordHi[i];
    }
    return n;
  }

  /** Zobrist hash from scratch (tests compare it with the incremental one). */
  computeHash(): [number, number] {
    let lo = 0;
    let hi = 0;
    for (let s = 0; s < SQUARES; s++) {
      const cell = this.board[s];
      if (cell === WHITE || cell === BLACK || cell === KING) {
        lo ^= KEYS[cell * SQUARES + s];
        hi ^= KEYS[HI_OFFSET + cell * SQUARES + s];
      }
    }
    if (this.side === SIDE_BLACK) {
      lo ^= SIDE_KEY_LO;
      hi ^= SIDE_KEY_HI;
    }
    return [lo, hi];
  }

  private recomputeHash(): void {
    const [lo, hi] = this.computeHash();
    this.hashLo = lo;
    this.hashHi = hi;
  }

  terminal(): number {
    const status = this.status;
    if (status === STATUS_ONGOING) return NOT_TERMINAL;
    // A win status always means the side to move is the loser.
    return status === STATUS_DRAW ? RESULT_DRAW : RESULT_LOSS;
  }

  generateMoves(buf: Int32Array, offset: number): number {
    const board = this.board;
    let at = offset;
    if (this.side === SIDE_WHITE) {
      for (let i = 0; i < this.whiteCount; i++) at = generatePieceMoves(board, this.whitePawns[i], buf, at);
      if (this.kingSquare >= 0) at = generatePieceMoves(board, this.kingSquare, buf, at);
    } else {
      for (let i = 0; i < this.blackCount; i++) at = generatePieceMoves(board, this.blackPawns[i], buf, at);
    }
    return at - offset;
  }

  makeMove(move: number): void {
    const from = (move / SQUARES) | 0;
    const to = move - from * SQUARES;
    const board = this.board;
    const piece = board[from];
    const u = this.ply;
    if (u === this.undoStatus.length || this.recordCount + 1 >= this.recordLo.length) this.grow();
    this.undoStatus[u] = this.status;
    this.undoRecordStart[u] = this.recordStart;

    // The throne square never becomes EMPTY: leaving it leaves the THRONE marker (still occupied).
    if (from === THRONE_SQUARE) board[from] = THRONE;
    else {
      board[from] = EMPTY;
      this.clearOccupied(from);
    }
    board[to] = piece;
    this.setOccupied(to);
    this.hashLo ^= KEYS[piece * SQUARES + from] ^ KEYS[piece * SQUARES + to];
    this.hashHi ^= KEYS[HI_OFFSET + piece * SQUARES + from] ^ KEYS[HI_OFFSET + piece * SQUARES + to];
    if (piece === KING) this.kingSquare = to;
    else {
      const index = this.listIndex[from];
      if (piece === WHITE) this.whitePawns[index] = to;
      else this.blackPawns[index] = to;
      this.listIndex[to] = index;
    }

    let captures = 0;
    if (this.side === SIDE_WHITE) {
      for (let d = 0; d < 4; d++) {
        const n = NEIGHBOUR[to * 4 + d];
        if (n < 0 || board[n] !== BLACK) continue;
        const b = BEYOND[to * 4 + d];
        if (b < 0) continue;
        const anvil = board[b];
        if (anvil === WHITE || anvil === KING || anvil === THRONE || CAMP_ANVIL_FOR_WHITE[b] === 1) {
          this.capture(n, BLACK, u * 3 + captures);
          captures++;
        }
      }
      if (piece === KING && ESCAPE[to] === 1) this.status = STATUS_WHITE_WON;
    } else {
      for (let d = 0; d < 4; d++) {
        const n = NEIGHBOUR[to * 4 + d];
        if (n < 0) continue;
        const victim = board[n];
        if (victim === WHITE) {
          const b = BEYOND[to * 4 + d];
          if (b >= 0 && (board[b] === BLACK || b === THRONE_SQUARE || CAMP[b] === 1)) {
            this.capture(n, WHITE, u * 3 + captures);
            captures++;
          }
        } else if (victim === KING && this.kingCapturedFrom(to, d)) {
          this.status = STATUS_BLACK_WON;
        }
      }
    }
    this.undoCaptureCount[u] = captures;

    this.side ^= 1;
    this.hashLo ^= SIDE_KEY_LO;
    this.hashHi ^= SIDE_KEY_HI;
    if (captures > 0) this.recordStart = this.recordCount;
    const lo = this.hashLo;
    const hi = this.hashHi;
    if (this.status === STATUS_ONGOING) {
      // Only positions with the same side to move can match: every other entry.
      for (let i = this.recordCount - 2; i >= this.recordStart; i -= 2) {
        if (this.recordLo[i] === lo && this.recordHi[i] === hi) {
          this.status = STATUS_DRAW;
          break;
        }
      }
    }
    this.recordLo[this.recordCount] = lo;
    this.recordHi[this.recordCount] = hi;
    this.recordCount++;
    this.ply = u + 1;
  }

  unmakeMove(move: number): void {
    const from = (move / SQUARES) | 0;
    const to = move - from * SQUARES;
    const board = this.board;
    const u = --this.ply;
    this.recordCount--;
    this.recordStart = this.undoRecordStart[u];
    this.status = this.undoStatus[u];
    this.side ^= 1;
    this.hashLo ^= SIDE_KEY_LO;
    this.hashHi ^= SIDE_KEY_HI;

    const capturedPiece = this.side === SIDE_WHITE ? BLACK : WHITE;
    for (let k = this.undoCaptureCount[u] - 1; k >= 0; k--) {
      this.uncapture(this.undoCaptureSquare[u * 3 + k], capturedPiece, this.undoCaptureIndex[u * 3 + k]);
    }

    const piece = board[to];
    board[to] = EMPTY;
    this.clearOccupied(to);
    board[from] = piece;
    this.setOccupied(from);
    this.hashLo ^= KEYS[piece * SQUARES + from] ^ KEYS[piece * SQUARES + to];
    this.hashHi ^= KEYS[HI_OFFSET + piece * SQUARES + from] ^ KEYS[HI_OFFSET + piece * SQUARES + to];
    if (piece === KING) this.kingSquare = from;
    else {
      const index = this.listIndex[to];
      if (piece === WHITE) this.whitePawns[index] = from;
      else this.blackPawns[index] = from;
      this.listIndex[from] = index;
    }
  }

  evaluate(alpha = -Infinity, beta = Infinity): number {
    return this.evaluator === null ? 0 : this.evaluator.evaluate(this, alpha, beta);
  }

  moveOrderScore(move: number): number {
    return moveOrderHint(this, move);
  }

  /** Forced replies only when the king's lines force them (see tactics.ts). */
  generateSearchMoves(buf: Int32Array, offset: number): number {
    return generateForcedOrAll(this, buf, offset);
  }

  /**
   * Whether the black pawn that just landed on `to` captures the king next to it in direction d.
   * Reads the board as it is after the move.
   */
  kingCapturedFrom(to: number, d: number): boolean {
    const king = NEIGHBOUR[to * 4 + d];
    const board = this.board;
    if (THRONE_ZONE[king] === 1) {
      // On or next to the throne: every neighbour but the throne itself must be black.
      for (let e = 0; e < 4; e++) {
        const n = NEIGHBOUR[king * 4 + e];
        if (n !== THRONE_SQUARE && board[n] !== BLACK) return false;
      }
      return true;
    }
    const b = BEYOND[to * 4 + d];
    return b >= 0 && (board[b] === BLACK || CAMP[b] === 1);
  }

  /**
   * Whether a move that captures nothing would recreate a position of the draw record (a draw by
   * repetition), read from the hash the move would produce, without making it.
   */
  repeatsAfter(move: number): boolean {
    const from = (move / SQUARES) | 0;
    const to = move - from * SQUARES;
    const piece = this.board[from];
    const lo = this.hashLo ^ KEYS[piece * SQUARES + from] ^ KEYS[piece * SQUARES + to] ^ SIDE_KEY_LO;
    const hi = this.hashHi ^ KEYS[HI_OFFSET + piece * SQUARES + from] ^ KEYS[HI_OFFSET + piece * SQUARES + to] ^ SIDE_KEY_HI;
    // Same parity as in makeMove: entries with the other side to move.
    for (let i = this.recordCount - 2; i >= this.recordStart; i -= 2) {
      if (this.recordLo[i] === lo && this.recordHi[i] === hi) return true;
    }
    return false;
  }

  /** Would a black pawn moving from `from` to `to` capture the king? (Board left unchanged.) */
  blackMoveCapturesKing(from: number, to: number): boolean {
    const board = this.board;
    board[from] = EMPTY;
    board[to] = BLACK;
    let captured = false;
    for (let d = 0; d < 4; d++) {
      const n = NEIGHBOUR[to * 4 + d];
      if (n >= 0 && board[n] === KING && this.kingCapturedFrom(to, d)) {
        captured = true;
        break;
      }
    }
    board[to] = EMPTY;
    board[from] = BLACK;
    return captured;
  }

  private capture(square: number, piece: number, slot: number): void {
    this.board[square] = EMPTY;
    this.clearOccupied(square);
    this.hashLo ^= KEYS[piece * SQUARES + square];
    this.hashHi ^= KEYS[HI_OFFSET + piece * SQUARES + square];
    const index = this.listIndex[square];
    if (piece === WHITE) {
      const last = this.whitePawns[--this.whiteCount];
      this.whitePawns[index] = last;
      this.listIndex[last] = index;
    } else {
      const last = this.blackPawns[--this.blackCount];
      this.blackPawns[index] = last;
      this.listIndex[last] = index;
    }
    this.undoCaptureSquare[slot] = square;
    this.undoCaptureIndex[slot] = index;
  }

  /** Exact inverse of capture(): the piece goes back to its list slot, the mover to the end. */
  private uncapture(square: number, piece: number, index: number): void {
    this.board[square] = piece;
    this.setOccupied(square);
    this.hashLo ^= KEYS[piece * SQUARES + square];
    this.hashHi ^= KEYS[HI_OFFSET + piece * SQUARES + square];
    const list = piece === WHITE ? this.whitePawns : this.blackPawns;
    const end = piece === WHITE ? this.whiteCount++ : this.blackCount++;
    const displaced = list[index];
    list[end] = displaced;
    this.listIndex[displaced] = end;
    list[index] = square;
    this.listIndex[square] = index;
  }

  private setOccupied(square: number): void {
    this.rowOccupied[ROW[square]] |= 1 << COL[square];
    this.colOccupied[COL[square]] |= 1 << ROW[square];
  }

  private clearOccupied(square: number): void {
    this.rowOccupied[ROW[square]] &= ~(1 << COL[square]);
    this.colOccupied[COL[square]] &= ~(1 << ROW[square]);
  }
}
