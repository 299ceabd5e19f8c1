/**
 * Fixed geometry of the Ashton Tablut board as the Tablut Challenge server defines it: squares,
 * camps, throne, escape squares, precomputed rays and neighbours, notation.
 *
 * Squares are numbered row * 9 + col with row 0 = the first array of the server's JSON (notation
 * row "1") and col 0 = column "a". Everything here is computed once at module load.
 */

export const SIZE = 9;
export const SQUARES = 81;

/** Cell codes of the engine board (Uint8Array). THRONE is the empty throne after the king left. */
export const EMPTY = 0;
export const WHITE = 1;
export const BLACK = 2;
export const KING = 3;
export const THRONE = 4;

export const CELL_NAMES = ['EMPTY', 'WHITE', 'BLACK', 'KING', 'THRONE'] as const;
export type CellName = (typeof CELL_NAMES)[number];

export const SIDE_WHITE = 0;
export const SIDE_BLACK = 1;

export const THRONE_SQUARE = 4 * SIZE + 4; // e5

/** Move code = from * 81 + to. */
export const MOVE_SPACE = SQUARES * SQUARES;

/** Directions: up (row - 1), down (row + 1), left (col - 1), right (col + 1). */
export const DIR_UP = 0;
export const DIR_DOWN = 1;
export const DIR_LEFT = 2;
export const DIR_RIGHT = 3;
const DIR_ROW = [-1, 1, 0, 0];
const DIR_COL = [0, 0, -1, 1];
/** The direction pointing back: up <-> down, left <-> right. */
export const OPPOSITE_DIR = [1, 0, 3, 2];

export function squareOf(row: number, col: number): number {
  return row * SIZE + col;
}
export function rowOf(square: number): number {
  return (square / SIZE) | 0;
}
export function colOf(square: number): number {
  return square % SIZE;
}

/** Row and column of every square, as tables (hot paths). */
export const ROW = new Uint8Array(81);
export const COL = new Uint8Array(81);
for (let s = 0; s < 81; s++) {
  ROW[s] = (s / 9) | 0;
  COL[s] = s % 9;
}

/** "e4" for board[3][4]: column letter a..i, row number 1..9. */
export function squareName(square: number): string {
  return String.fromCharCode(97 + colOf(square)) + String(rowOf(square) + 1);
}

/** Parses "e4" (case-insensitive); -1 when it is not a square. */
export function parseSquare(text: string): number {
  if (text.length !== 2) return -1;
  const col = text.toLowerCase().charCodeAt(0) - 97;
  const row = text.charCodeAt(1) - 49;
  if (col < 0 || col >= SIZE || row < 0 || row >= SIZE) return -1;
  return squareOf(row, col);
}

export function moveFrom(move: number): number {
  return (move / SQUARES) | 0;
}
export function moveTo(move: number): number {
  return move % SQUARES;
}
export function makeMoveCode(from: number, to: number): number {
  return from * SQUARES + to;
}
export function moveName(move: number): string {
  return squareName(moveFrom(move)) + '-' + squareName(moveTo(move));
}

const CAMP_NAMES = [
  'a4', 'a5', 'a6', 'b5', // west
  'i4', 'i5', 'i6', 'h5', // east
  'd1', 'e1', 'f1', 'e2', // row 1 (top of the JSON)
  'd9', 'e9', 'f9', 'e8', // row 9
];
/** The four camp centres that do not act as an anvil when White captures a black pawn. */
const CAMP_CENTRE_NAMES = ['a5', 'i5', 'e1', 'e9'];

/** 1 on the 16 camp (citadel) squares. */
export const CAMP = new Uint8Array(SQUARES);
/** 1 on camps that are hostile to a black pawn captured by White (camps minus the four centres). */
export const CAMP_ANVIL_FOR_WHITE = new Uint8Array(SQUARES);
/** 1 on the 20 edge squares the king can escape to (edge squares that are not camps). */
export const ESCAPE = new Uint8Array(SQUARES);
/** 1 on the throne and the four squares next to it (the king's special capture zone). */
export const THRONE_ZONE = new Uint8Array(SQUARES);
for (const name of CAMP_NAMES) CAMP[parseSquare(name)] = 1;
for (let s = 0; s < SQUARES; s++) CAMP_ANVIL_FOR_WHITE[s] = CAMP[s];
for (const name of CAMP_CENTRE_NAMES) CAMP_ANVIL_FOR_WHITE[parseSquare(name)] = 0;
for (let s = 0; s < SQUARES; s++) {
  const r = rowOf(s);
  const c = colOf(s);
  if ((r === 0 || r === SIZE - 1 || c === 0 || c === SIZE - 1) && CAMP[s] === 0) ESCAPE[s] = 1;
}
THRONE_ZONE[THRONE_SQUARE] = 1;

/**
 * RAY[(s * 4 + d) * 8 + k]: the k-th square from s in direction d (k = 0 is the neighbour);
 * RAY_LENGTH[s * 4 + d]: how many squares there are before the edge.
 */
export const RAY = new Int8Array(SQUARES * 4 * 8);
export const RAY_LENGTH = new Uint8Array(SQUARES * 4);
/** NEIGHBOUR[s * 4 + d] / BEYOND[s * 4 + d]: one / two steps from s in direction d, or -1 off the board. */
export const NEIGHBOUR = new Int8Array(SQUARES * 4);
export const BEYOND = new Int8Array(SQUARES * 4);
for (let s = 0; s < SQUARES; s++) {
  for (let d = 0; d < 4; d++) {
    let r = rowOf(s) + DIR_ROW[d];
    let c = colOf(s) + DIR_COL[d];
    let k = 0;
    while (r >= 0 && r < SIZE && c >= 0 && c < SIZE) {
      RAY[(s * 4 + d) * 8 + k] = squareOf(r, c);
      k++;
      r += DIR_ROW[d];
      c += DIR_COL[d];
    }
    RAY_LENGTH[s * 4 + d] = k;
    NEIGHBOUR[s * 4 + d] = k >= 1 ? RAY[(s * 4 + d) * 8] : -1;
    BEYOND[s * 4 + d] = k >= 2 ? RAY[(s * 4 + d) * 8 + 1] : -1;
    if (s === THRONE_SQUARE) THRONE_ZONE[NEIGHBOUR[s * 4 + d]] = 1;
  }
}

/** Bits of the squares the king can never stand on or cross, per row and per column (camps, throne). */
export const ROW_WALL = new Uint16Array(SIZE);
export const COL_WALL = new Uint16Array(SIZE);
for (let s = 0; s < SQUARES; s++) {
  if (CAMP[s] === 1 || s === THRONE_SQUARE) {
    ROW_WALL[rowOf(s)] |= 1 << colOf(s);
    COL_WALL[colOf(s)] |= 1 << rowOf(s);
  }
}

/** Bits of the camp squares per row and per column. */
export const ROW_CAMPS = new Uint16Array(SIZE);
export const COL_CAMPS = new Uint16Array(SIZE);
for (let s = 0; s < SQUARES; s++) {
  if (CAMP[s] === 1) {
    ROW_CAMPS[rowOf(s)] |= 1 << colOf(s);
    COL_CAMPS[colOf(s)] |= 1 << rowOf(s);
  }
}

/** The initial position (RULES.md "Initial position"), as cell codes. */
export const INITIAL_BOARD = new Uint8Array(SQUARES);
for (const name of CAMP_NAMES) INITIAL_BOARD[parseSquare(name)] = BLACK;
for (const name of ['e3', 'e4', 'e6', 'e7', 'c5', 'd5', 'f5', 'g5']) INITIAL_BOARD[parseSquare(name)] = WHITE;
INITIAL_BOARD[THRONE_SQUARE] = KING;

/** Game status kept by the position (the server's turn values for a finished game). */
export const STATUS_ONGOING = 0;
export const STATUS_WHITE_WON = 1;
export const STATUS_BLACK_WON = 2;
export const STATUS_DRAW = 3;

export const MAX_WHITE_PAWNS = 8;
export const MAX_BLACK_PAWNS = 16;
/** A rook on 9x9 has at most 16 moves; Black has at most 16 pieces. */
export const MAX_MOVES = 16 * MAX_BLACK_PAWNS;
