/**
 * A quiescence search over king-escape threats, run from the evaluation so that the horizon never
 * hides the game's forcing lines:
 * - White to move may stand pat (static value) or play a threat: a king move to a square with an
 *   open line to an escape square, or a pawn stepping off the one line it alone blocks;
 * - Black facing an open line must block it or capture the king (no stand pat: anything else
 *   loses at once) and takes the best block; two open lines lose unless the king can be captured.
 * - with parries on, White facing a king capture (Black to move would take it) must parry: only
 *   the moves after which no capture is possible are searched, and none left is a loss (Black's
 *   double threats on the king at the horizon).
 * It is an alpha-beta search on the caller's window, so most leaves of a null-window search cost
 * one static evaluation: White standing pat at or above beta needs no threat tried.
 * White's threats are limited to `whiteMoves` per call, and every call to `budget` moves made, so
 * one evaluation stays well under a millisecond whatever the position (past the budget White
 * stands pat and Black keeps the best block found).
 * Moves are made and unmade on the position itself; buffers are preallocated.
 */
import {
  BEYOND,
  CAMP,
  CAMP_ANVIL_FOR_WHITE,
  COL,
  EMPTY,
  KING,
  NEIGHBOUR,
  OPPOSITE_DIR,
  RAY,
  RAY_LENGTH,
  ROW,
  SIDE_WHITE,
  SQUARES,
  THRONE,
  WHITE,
} from './board.js';
import { blackCanCaptureKing } from './features.js';
import { BIT_COUNT_4, onOpenLine, openLineMask } from './lines.js';
import { generatePieceMoves } from './movegen.js';
import { MAX_MOVES, STATUS_BLACK_WON, STATUS_ONGOING, STATUS_WHITE_WON, type TablutPosition } from './position.js';

/** White escapes on its next move. */
export const WON_NOW = 40_000;
/** White wins by force in a few plies (an unstoppable double threat, or a won threat line). */
export const WON_SOON = 30_000;

const MAX_LEVELS = 8;
/** Moves one evaluation may make; typical calls need a handful. */
const MOVE_BUDGET = 64;

export class ThreatQuiescence {
  private readonly buffers: Int32Array[] = [];
  /** Static evaluation from White's point of view (no threat search inside). */
  private readonly staticWhite: (pos: TablutPosition) => number;
  private readonly whiteMoves: number;
  private readonly budget: number;
  /** White facing a king capture must parry it (no stand pat). */
  private readonly parries: boolean;
  private movesLeft = 0;

  constructor(staticWhite: (pos: TablutPosition) => number, whiteMoves: number, budget = MOVE_BUDGET, parries = false) {
    this.parries = parries;
    this.staticWhite = staticWhite;
    this.whiteMoves = whiteMoves;
    this.budget = budget;
    for (let i = 0; i < MAX_LEVELS; i++) this.buffers.push(new Int32Array(MAX_MOVES));
  }

  /**
   * Value of the position from White's point of view, threats resolved. Within (alpha, beta) the
   * value is exact; at or above beta it is a lower bound, at or below alpha an upper bound.
   */
  evaluate(pos: TablutPosition, alpha = -Infinity, beta = Infinity): number {
    this.movesLeft = this.budget;
    return this.search(pos, this.whiteMoves, 0, alpha, beta);
  }

  private search(pos: TablutPosition, whiteMovesLeft: number, level: number, alpha: number, beta: number): number {
    if (pos.status === STATUS_WHITE_WON) return WON_NOW + 1000;
    if (pos.status === STATUS_BLACK_WON) return -(WON_NOW + 1000);
    if (pos.status !== STATUS_ONGOING) return 0;
    const king = pos.kingSquare;
    const lines = openLineMask(pos, king, -1);
    if (pos.side === SIDE_WHITE) {
      if (lines !== 0) return WON_NOW;
      if (this.parries && level < MAX_LEVELS - 1 && this.movesLeft > 0 && blackCanCaptureKing(pos)) {
        return this.parry(pos, whiteMovesLeft, level, alpha, beta);
      }
      const standPat = this.staticWhite(pos);
      if (standPat >= beta || whiteMovesLeft === 0 || level >= MAX_LEVELS - 1 || standPat >= WON_SOON || this.movesLeft <= 0) {
        return standPat;
      }
      return this.whiteThreats(pos, standPat, whiteMovesLeft, level, standPat > alpha ? standPat : alpha, beta);
    }
    if (blackCanCaptureKing(pos)) return -WON_NOW;
    if (lines === 0) return this.staticWhite(pos);
    // Black must answer the open line: block it (a single line), or nothing helps.
    if (BIT_COUNT_4[lines] >= 2 || level >= MAX_LEVELS - 1) return WON_SOON;
    const buf = this.buffers[level];
    const count = pos.generateMoves(buf, 0);
    let best = WON_SOON;
    let tried = 0;
    for (let i = 0; i < count; i++) {
      const move = buf[i];
      const to = move % SQUARES;
      if (!onOpenLine(king, lines, to)) continue;
      if (this.movesLeft <= 0) return tried > 0 ? best : this.staticWhite(pos);
      this.movesLeft--;
      tried++;
      pos.makeMove(move);
      const value = this.search(pos, whiteMovesLeft, level + 1, alpha, beta);
      pos.unmakeMove(move);
      if (value < best) {
        best = value;
        if (best <= alpha) break;
        if (best < beta) beta = best;
      }
    }
    return best;
  }

  /**
   * White to move while Black threatens to capture the king: only the moves after which no capture
   * is possible count (any other loses next move); none means the loss.
   */
  private parry(pos: TablutPosition, whiteMovesLeft: number, level: number, alpha: number, beta: number): number {
    const buf = this.buffers[level];
    const count = pos.generateMoves(buf, 0);
    let best = -WON_SOON;
    let tried = 0;
    for (let i = 0; i < count; i++) {
      const move = buf[i];
      pos.makeMove(move);
      if (pos.status === STATUS_ONGOING && blackCanCaptureKing(pos)) {
        pos.unmakeMove(move);
        continue;
      }
      if (this.movesLeft <= 0) {
        pos.unmakeMove(move);
        return tried > 0 ? best : this.staticWhite(pos);
      }
      this.movesLeft--;
      tried++;
      const value = this.search(pos, whiteMovesLeft, level + 1, alpha, beta);
      pos.unmakeMove(move);
      if (value > best) {
        best = value;
        if (best >= beta) break;
        if (best > alpha) alpha = best;
      }
    }
    return best;
  }

  private whiteThreats(
    pos: TablutPosition,
    standPat: number,
    whiteMovesLeft: number,
    level: number,
    alpha: number,
    beta: number,
  ): number {
    const buf = this.buffers[level];
    const king = pos.kingSquare;
    const board = pos.board;
    let best = standPat;
    // King steps to a square that opens a line.
    const kingMoves = generatePieceMoves(board, king, buf, 0);
    let count = 0;
    for (let j = 0; j < kingMoves; j++) {
      if (openLineMask(pos, buf[j] % SQUARES, king) !== 0) buf[count++] = buf[j];
    }
    // Pawn discoveries: the only piece on a king line to the edge steps off it.
    const kr = ROW[king];
    const kc = COL[king];
    for (let i = 0; i < pos.whiteCount; i++) {
      const p = pos.whitePawns[i];
      if (ROW[p] !== kr && COL[p] !== kc) continue;
      // No line is open here (White to move would have escaped), so any open line is p's.
      if (openLineMask(pos, king, p) === 0) continue;
      const before = count;
      count = generatePieceMoves(board, p, buf, count);
      // Keep the moves that leave the line.
      let kept = before;
      for (let j = before; j < count; j++) {
        const to = buf[j] % SQUARES;
        if (ROW[p] === kr ? ROW[to] !== kr : COL[to] !== kc) buf[kept++] = buf[j];
      }
      count = kept;
    }
    count = this.blockerCaptures(pos, buf, count);
    for (let i = 0; i < count && this.movesLeft > 0; i++) {
      const move = buf[i];
      this.movesLeft--;
      pos.makeMove(move);
      const value = this.search(pos, whiteMovesLeft - 1, level + 1, alpha, beta);
      pos.unmakeMove(move);
      if (value > best) {
        best = value;
        if (best >= WON_SOON || best >= beta) break;
        if (best > alpha) alpha = best;
      }
    }
    return best;
  }

  /**
   * Captures of the one black pawn that alone shuts a king line: a white piece (king included)
   * lands next to it with a white anvil (piece, empty throne, non-centre camp) on the far side.
   */
  private blockerCaptures(pos: TablutPosition, buf: Int32Array, count: number): number {
    const king = pos.kingSquare;
    const board = pos.board;
    const kr = ROW[king];
    const kc = COL[king];
    for (let i = 0; i < pos.blackCount; i++) {
      const b = pos.blackPawns[i];
      if (ROW[b] !== kr && COL[b] !== kc) continue;
      if (openLineMask(pos, king, b) === 0) continue;
      for (let d = 0; d < 4; d++) {
        const x = NEIGHBOUR[b * 4 + d];
        if (x < 0 || board[x] !== EMPTY || CAMP[x] === 1) continue;
        const anvil = BEYOND[x * 4 + OPPOSITE_DIR[d]];
        if (anvil < 0) continue;
        const a = board[anvil];
        if (a !== WHITE && a !== KING && a !== THRONE && CAMP_ANVIL_FOR_WHITE[anvil] === 0) continue;
        for (let e = 0; e < 4; e++) {
          const rayIndex = x * 4 + e;
          const length = RAY_LENGTH[rayIndex];
          const start = rayIndex * 8;
          for (let k = 0; k < length; k++) {
            const sq = RAY[start + k];
            const cell = board[sq];
            if (cell === EMPTY && CAMP[sq] === 0) continue;
            if ((cell === WHITE || cell === KING) && count < MAX_MOVES) buf[count++] = sq * SQUARES + x;
            break;
          }
        }
      }
    }
    return count;
  }
}
