/**
 * Board features shared by the evaluation profiles: who can reach a square in one move, whether
 * Black can capture the king or a white pawn next move, the king's surroundings. All without
 * allocation.
 */
import {
  BEYOND,
  BLACK,
  CAMP,
  CAMP_ANVIL_FOR_WHITE,
  EMPTY,
  KING,
  COL,
  COL_CAMPS,
  NEIGHBOUR,
  ROW,
  ROW_CAMPS,
  SIZE,
  THRONE,
  THRONE_SQUARE,
  THRONE_ZONE,
  WHITE,
} from './board.js';
import type { TablutPosition } from './position.js';

const LINE_BITS = (1 << SIZE) - 1;

/**
 * The nearest occupied square from x in direction d (0 up, 1 down, 2 left, 3 right), or -1; the
 * camps strictly between are left in `campsBetween` (read right after the call).
 */
let campsBetween = 0;
function nearestOccupied(pos: TablutPosition, x: number, d: number): number {
  const r = ROW[x];
  const c = COL[x];
  let m: number;
  let at: number;
  if (d < 2) {
    const occupied = pos.colOccupied[c];
    if (d === 0) {
      m = occupied & ((1 << r) - 1);
      if (m === 0) return -1;
      at = 31 - Math.clz32(m);
      campsBetween = COL_CAMPS[c] & ((1 << r) - 1) & ~((2 << at) - 1);
    } else {
      m = occupied & LINE_BITS & ~((2 << r) - 1);
      if (m === 0) return -1;
      at = 31 - Math.clz32(m & -m);
      campsBetween = COL_CAMPS[c] & ((1 << at) - 1) & ~((2 << r) - 1);
    }
    return at * SIZE + c;
  }
  const occupied = pos.rowOccupied[r];
  if (d === 2) {
    m = occupied & ((1 << c) - 1);
    if (m === 0) return -1;
    at = 31 - Math.clz32(m);
    campsBetween = ROW_CAMPS[r] & ((1 << c) - 1) & ~((2 << at) - 1);
  } else {
    m = occupied & LINE_BITS & ~((2 << c) - 1);
    if (m === 0) return -1;
    at = 31 - Math.clz32(m & -m);
    campsBetween = ROW_CAMPS[r] & ((1 << at) - 1) & ~((2 << c) - 1);
  }
  return r * SIZE + at;
}

/**
 * The first black pawn (other than `exclude`) that can slide to the empty square x, or -1.
 * Camp rules: crossing an empty camp square is only possible for a pawn starting on a camp;
 * a camp destination is treated as unreachable (only a pawn of the same camp could enter it).
 */
export function blackPawnReaching(pos: TablutPosition, x: number, exclude: number): number {
  if (CAMP[x] === 1) return -1;
  const board = pos.board;
  for (let d = 0; d < 4; d++) {
    const sq = nearestOccupied(pos, x, d);
    if (sq < 0 || sq === exclude || board[sq] !== BLACK) continue;
    if (campsBetween === 0 || CAMP[sq] === 1) return sq;
  }
  return -1;
}

/** Whether a white piece (pawn or king) other than `exclude` can slide to the empty square x. */
export function whitePieceReaches(pos: TablutPosition, x: number, exclude: number): boolean {
  if (CAMP[x] === 1) return false;
  const board = pos.board;
  for (let d = 0; d < 4; d++) {
    const sq = nearestOccupied(pos, x, d);
    if (sq < 0 || sq === exclude || campsBetween !== 0) continue;
    const cell = board[sq];
    if (cell === WHITE || cell === KING) return true;
  }
  return false;
}

/** Black to move could capture the king at once (checks every empty square next to the king). */
export function blackCanCaptureKing(pos: TablutPosition): boolean {
  const king = pos.kingSquare;
  const board = pos.board;
  const inZone = THRONE_ZONE[king] === 1;
  for (let d = 0; d < 4; d++) {
    const x = NEIGHBOUR[king * 4 + d];
    if (x < 0 || board[x] !== EMPTY) continue;
    // Cheap necessary condition before looking for a pawn that can land on x.
    if (inZone) {
      let missing = 0;
      for (let e = 0; e < 4; e++) {
        const n = NEIGHBOUR[king * 4 + e];
        if (n !== THRONE_SQUARE && n !== x && board[n] !== BLACK) missing++;
      }
      if (missing > 0) continue;
    } else {
      const opposite = BEYOND[x * 4 + oppositeOf(d)];
      // opposite of x across the king: the square two steps from x through the king.
      if (opposite < 0 || (board[opposite] !== BLACK && CAMP[opposite] === 0)) continue;
    }
    let exclude = -1;
    for (let tries = 0; tries < 4; tries++) {
      const from = blackPawnReaching(pos, x, exclude);
      if (from < 0) break;
      if (pos.blackMoveCapturesKing(from, x)) return true;
      exclude = from;
    }
  }
  return false;
}

function oppositeOf(d: number): number {
  return d ^ 1;
}

/**
 * White pawns Black could capture with its next move: an empty square on one side that a black
 * pawn can reach, and a hostile square (black pawn, throne, camp) on the other.
 */
export function capturableWhitePawns(pos: TablutPosition): number {
  const board = pos.board;
  let count = 0;
  for (let i = 0; i < pos.whiteCount; i++) {
    const s = pos.whitePawns[i];
    for (let axis = 0; axis < 2; axis++) {
      const a = NEIGHBOUR[s * 4 + axis * 2];
      const b = NEIGHBOUR[s * 4 + axis * 2 + 1];
      if (a < 0 || b < 0) continue;
      const hostileA = board[a] === BLACK || a === THRONE_SQUARE || CAMP[a] === 1;
      const hostileB = board[b] === BLACK || b === THRONE_SQUARE || CAMP[b] === 1;
      if ((hostileA && board[b] === EMPTY && blackPawnReaching(pos, b, a) >= 0) ||
          (hostileB && board[a] === EMPTY && blackPawnReaching(pos, a, b) >= 0)) {
        count++;
        break;
      }
    }
  }
  return count;
}

/**
 * Black pawns White could capture with its next move: an empty square on one side that a white
 * piece can reach, and a hostile square (white piece, empty throne, camp other than a centre) on the other.
 */
export function capturableBlackPawns(pos: TablutPosition): number {
  const board = pos.board;
  let count = 0;
  for (let i = 0; i < pos.blackCount; i++) {
    const s = pos.blackPawns[i];
    for (let axis = 0; axis < 2; axis++) {
      const a = NEIGHBOUR[s * 4 + axis * 2];
      const b = NEIGHBOUR[s * 4 + axis * 2 + 1];
      if (a < 0 || b < 0) continue;
      const cellA = board[a];
      const cellB = board[b];
      const hostileA = cellA === WHITE || cellA === KING || cellA === THRONE || CAMP_ANVIL_FOR_WHITE[a] === 1;
      const hostileB = cellB === WHITE || cellB === KING || cellB === THRONE || CAMP_ANVIL_FOR_WHITE[b] === 1;
      if ((hostileA && cellB === EMPTY && whitePieceReaches(pos, b, a)) ||
          (hostileB && cellA === EMPTY && whitePieceReaches(pos, a, b))) {
        count++;
        break;
      }
    }
  }
  return count;
}

/** Black pawns next to the king, and how many the capture needs where the king stands. */
export function blackAroundKing(pos: TablutPosition): number {
  const king = pos.kingSquare;
  let count = 0;
  for (let d = 0; d < 4; d++) {
    const n = NEIGHBOUR[king * 4 + d];
    if (n >= 0 && pos.board[n] === BLACK) count++;
  }
  return count;
}

export function blackNeededAroundKing(king: number): number {
  if (king === THRONE_SQUARE) return 4;
  return THRONE_ZONE[king] === 1 ? 3 : 2;
}

/**
 * How close the king is to being captured, 0 (safe) .. 16 (captured). Each neighbour counts 4 when
 * black or a camp (an anvil), 2 when empty and a black pawn can land there now, 1 when empty, 0 when
 * white. On the throne the four values multiply, next to it the three non-throne ones; elsewhere the
 * worse of the two axes (two opposite anvils capture) plus a quarter of the other.
 */
export function kingDanger(pos: TablutPosition): number {
  const king = pos.kingSquare;
  const board = pos.board;
  let v0 = 0;
  let v1 = 0;
  let v2 = 0;
  let v3 = 0;
  for (let d = 0; d < 4; d++) {
    const n = NEIGHBOUR[king * 4 + d];
    let v: number;
    if (n < 0) v = 0;
    else if (n === THRONE_SQUARE) v = 4;
    else {
      const cell = board[n];
      if (cell === BLACK || CAMP[n] === 1) v = 4;
      else if (cell === EMPTY) v = blackPawnReaching(pos, n, -1) >= 0 ? 2 : 1;
      else v = 0;
    }
    if (d === 0) v0 = v;
    else if (d === 1) v1 = v;
    else if (d === 2) v2 = v;
    else v3 = v;
  }
  if (king === THRONE_SQUARE) return (v0 * v1 * v2 * v3) >> 4;
  if (THRONE_ZONE[king] === 1) return (v0 * v1 * v2 * v3) >> 4; // the throne side counts 4: same scale
  const vertical = v0 * v1;
  const horizontal = v2 * v3;
  return vertical >= horizontal ? vertical + (horizontal >> 2) : horizontal + (vertical >> 2);
}
