/**
 * Tactics the search must never miss, made cheap:
 * - move ordering hints: king escapes and king captures first, then double and single escape
 *   threats, captures, blocks of the king's open lines;
 * - forced replies (generateSearchMoves): when White can escape, one escape move; when Black faces
 *   an open line, only the moves that block it, capture the king or draw by repetition (everything
 *   else loses at once);
 * - a root solver for wins in one ply, so even a zero budget answers them.
 */
import { WIN_SCORE } from '../../search/score.js';
import { TACTICAL_HINT, type SolveContext, type SolveResult } from '../types.js';
import {
  BEYOND,
  BLACK,
  CAMP,
  CAMP_ANVIL_FOR_WHITE,
  COL,
  ESCAPE,
  KING,
  NEIGHBOUR,
  ROW,
  SIDE_WHITE,
  SIZE,
  SQUARES,
  THRONE,
  THRONE_SQUARE,
  WHITE,
  MAX_MOVES,
  STATUS_ONGOING,
} from './board.js';
import { BIT_COUNT_4, onOpenLine, openLineMask } from './lines.js';
import type { TablutBoardView } from './board-view.js';

const HINT_WIN = TACTICAL_HINT + 490_000;
const HINT_DOUBLE_THREAT = TACTICAL_HINT + 300_000;
const HINT_BLOCK = TACTICAL_HINT + 200_000;
const HINT_THREAT = TACTICAL_HINT + 100_000;
const HINT_CAPTURE = TACTICAL_HINT + 50_000;
const HINT_PER_CAPTURE = 10_000;
const HINT_KING_CONTACT = 20_000;

/** Edge square reached from `square` in direction d (0 up, 1 down, 2 left, 3 right). */
function edgeSquare(square: number, d: number): number {
  const r = ROW[square];
  const c = COL[square];
  if (d === 0) return c;
  if (d === 1) return (SIZE - 1) * SIZE + c;
  if (d === 2) return r * SIZE;
  return r * SIZE + SIZE - 1;
}

/** White to move: a king move that reaches the edge now, or -1. */
export function escapeMove(pos: TablutBoardView): number {
  const king = pos.kingSquare;
  const mask = openLineMask(pos, king, -1);
  if (mask === 0) return -1;
  const d = mask & 1 ? 0 : mask & 2 ? 1 : mask & 4 ? 2 : 3;
  return king * SQUARES + edgeSquare(king, d);
}

/** Number of captures a move would make (board before the move). */
export function captureCount(pos: TablutBoardView, from: number, to: number): number {
  const board = pos.board;
  const piece = board[from];
  let count = 0;
  if (piece === BLACK) {
    for (let d = 0; d < 4; d++) {
      const n = NEIGHBOUR[to * 4 + d];
      if (n < 0 || board[n] !== WHITE) continue;
      const b = BEYOND[to * 4 + d];
      if (b >= 0 && ((board[b] === BLACK && b !== from) || b === THRONE_SQUARE || CAMP[b] === 1)) count++;
    }
  } else {
    for (let d = 0; d < 4; d++) {
      const n = NEIGHBOUR[to * 4 + d];
      if (n < 0 || board[n] !== BLACK) continue;
      const b = BEYOND[to * 4 + d];
      if (b < 0) continue;
      const anvil = b === from ? (from === THRONE_SQUARE ? THRONE : 0) : board[b];
      if (anvil === WHITE || anvil === KING || anvil === THRONE || CAMP_ANVIL_FOR_WHITE[b] === 1) count++;
    }
  }
  return count;
}

function isNextToKing(pos: TablutBoardView, square: number): boolean {
  const king = pos.kingSquare;
  return (
    NEIGHBOUR[king * 4] === square ||
    NEIGHBOUR[king * 4 + 1] === square ||
    NEIGHBOUR[king * 4 + 2] === square ||
    NEIGHBOUR[king * 4 + 3] === square
  );
}

/** The king's open lines of the last position asked about (the hint is called once per move of a node). */
let cachedLo = 0;
let cachedHi = 0;
let cachedKing = -1;
let cachedLines = 0;

function kingLines(pos: TablutBoardView): number {
  if (pos.hashLo !== cachedLo || pos.hashHi !== cachedHi || pos.kingSquare !== cachedKing) {
    cachedLo = pos.hashLo;
    cachedHi = pos.hashHi;
    cachedKing = pos.kingSquare;
    cachedLines = openLineMask(pos, pos.kingSquare, -1);
  }
  return cachedLines;
}

/** Static ordering hint of a legal move. */
export function moveOrderHint(pos: TablutBoardView, move: number): number {
  const from = (move / SQUARES) | 0;
  const to = move - from * SQUARES;
  const board = pos.board;
  const piece = board[from];
  if (piece === KING) {
    if (ESCAPE[to] === 1) return HINT_WIN;
    const lines = BIT_COUNT_4[openLineMask(pos, to, from)];
    if (lines >= 2) return HINT_DOUBLE_THREAT;
    if (lines === 1) return HINT_THREAT;
    const captures = captureCount(pos, from, to);
    return captures > 0 ? HINT_CAPTURE + captures * HINT_PER_CAPTURE : 0;
  }
  let hint = 0;
  const captures = captureCount(pos, from, to);
  if (captures > 0) hint = HINT_CAPTURE + captures * HINT_PER_CAPTURE;
  if (piece === BLACK) {
    if (isNextToKing(pos, to)) {
      if (pos.blackMoveCapturesKing(from, to)) return HINT_WIN;
      hint += HINT_KING_CONTACT;
    }
    const lines = kingLines(pos);
    if (lines !== 0 && onOpenLine(pos.kingSquare, lines, to)) hint = Math.max(hint, HINT_BLOCK);
  }
  return hint;
}

/**
 * The moves worth searching: all legal moves, except when the position is tactically forced
 * (see the module comment). Never returns 0 while a legal move exists.
 */
export function generateForcedOrAll(pos: TablutBoardView, buf: Int32Array, offset: number): number {
  if (pos.side === SIDE_WHITE) {
    const escape = escapeMove(pos);
    if (escape >= 0) {
      buf[offset] = escape;
      return 1;
    }
    return pos.generateMoves(buf, offset);
  }
  const count = pos.generateMoves(buf, offset);
  const king = pos.kingSquare;
  const lines = openLineMask(pos, king, -1);
  if (lines === 0 || count === 0) return count;
  const single = BIT_COUNT_4[lines] === 1;
  // A repetition draw also saves Black (possible once the record since the last capture holds a
  // position with White to move besides the current one).
  const repetitionPossible = pos.recordCount - pos.recordStart >= 2;
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const move = buf[offset + i];
    const from = (move / SQUARES) | 0;
    const to = move - from * SQUARES;
    const keep =
      (single && onOpenLine(king, lines, to)) ||
      (isNextToKing(pos, to) && pos.blackMoveCapturesKing(from, to)) ||
      (repetitionPossible && captureCount(pos, from, to) === 0 && pos.repeatsAfter(move));
    if (keep) buf[offset + kept++] = move;
  }
  // Every move loses: one is enough to let the search see it.
  return kept > 0 ? kept : 1;
}

/** winningMove's move buffer, allocated on first use. */
let winningScratch: Int32Array | null = null;

/** A move that wins at once (escape, or king capture), or -1. */
export function winningMove(pos: TablutBoardView): number {
  if (pos.status !== STATUS_ONGOING) return -1;
  if (pos.side === SIDE_WHITE) return escapeMove(pos);
  const buf = winningScratch ?? (winningScratch = new Int32Array(MAX_MOVES));
  const count = pos.generateMoves(buf, 0);
  for (let i = 0; i < count; i++) {
    const from = (buf[i] / SQUARES) | 0;
    const to = buf[i] - from * SQUARES;
    if (pos.board[from] === BLACK && isNextToKing(pos, to) && pos.blackMoveCapturesKing(from, to)) return buf[i];
  }
  return -1;
}

/**
 * Root solver: answers a win in one ply immediately; otherwise lets the search run. It costs one
 * move generation, so it needs no deadline polling.
 */
export function solveTactics(pos: TablutBoardView, _ctx: SolveContext): SolveResult | null {
  const move = winningMove(pos);
  if (move < 0) return null;
  return { move, score: WIN_SCORE - 1, pv: [move], nodes: 1, depth: 1 };
}
