/**
 * Othello board geometry and bitboard primitives.
 *
 * Square index: `row * 8 + col`, row 0 = row "1" (first string of the JSON board), col 0 = column "a".
 * So a1 = 0, h1 = 7, a8 = 56, h8 = 63. Move codes are these indices, plus PASS_MOVE = 64.
 *
 * A 64-bit set of squares is held as two int32 halves: `lo` = squares 0..31 (rows 1-4), `hi` =
 * squares 32..63 (rows 5-8). JavaScript has no fast 64-bit integer (BigInt allocates), and V8 keeps
 * int32 values unboxed in registers and typed arrays.
 *
 * The mailbox (10x10 with a sentinel border) is kept beside the bitboards because walking a ray one
 * byte at a time is the cheapest way to find flipped discs in JavaScript; the bitboards give
 * mobility for all squares at once with shifts.
 */

export const SQUARES = 64;
export const PASS_MOVE = 64;
export const MOVE_SPACE = 65;
/** More than the most legal moves ever found in an Othello position (33). */
export const MAX_MOVES = 40;

export const EMPTY = 0;
export const BLACK_CELL = 1;
export const WHITE_CELL = 2;
export const BORDER = 3;

/** Mailbox index of square `sq`: a 10-wide grid with a border row/column on each side. */
export const MAILBOX = new Int8Array(SQUARES);
/** Square of a mailbox index (-1 on the border). */
export const SQUARE_OF_BOX = new Int8Array(100).fill(-1);
for (let sq = 0; sq < SQUARES; sq++) {
  const box = ((sq >> 3) + 1) * 10 + (sq & 7) + 1;
  MAILBOX[sq] = box;
  SQUARE_OF_BOX[box] = sq;
}
/** The eight ray steps on the mailbox. */
export const BOX_DIRECTIONS = new Int8Array([-11, -10, -9, -1, 1, 9, 10, 11]);
/** Per mailbox index, the bit of its square in the low / high half (0 on the border). */
export const BOX_BIT_LO = new Int32Array(100);
export const BOX_BIT_HI = new Int32Array(100);
for (let sq = 0; sq < SQUARES; sq++) {
  if (sq < 32) BOX_BIT_LO[MAILBOX[sq]] = 1 << sq;
  else BOX_BIT_HI[MAILBOX[sq]] = 1 << (sq - 32);
}

/** Bit of `sq` in its half. */
export function bitOf(sq: number): number {
  return 1 << (sq & 31);
}

const FILES = 'abcdefgh';

export function squareName(sq: number): string {
  return FILES[sq & 7] + String((sq >> 3) + 1);
}

export function moveName(move: number): string {
  return move === PASS_MOVE ? 'pass' : squareName(move);
}

/** 'a1'..'h8' (case-insensitive) to a square, or -1. */
export function parseSquare(text: string): number {
  if (text.length !== 2) return -1;
  const col = FILES.indexOf(text[0].toLowerCase());
  const row = text.charCodeAt(1) - 49;
  if (col < 0 || row < 0 || row > 7) return -1;
  return row * 8 + col;
}

export function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Excludes columns a and h: a run of discs along a non-vertical line never wraps around the board. */
const INNER = 0x7e7e7e7e;

/**
 * Legal-move squares of the player `p` against the opponent `o`. Returns the low half; the high half
 * is left in `mobilityHi`. Dumb7fill along each of the eight directions: at most six opponent discs
 * can be bracketed, so five propagation steps after the first suffice.
 */
export let mobilityHi = 0;

export function mobility(pl: number, ph: number, ol: number, oh: number): number {
  const el = ~(pl | ol);
  const eh = ~(ph | oh);
  const il = ol & INNER;
  const ih = oh & INNER;
  let ml = 0;
  let mh = 0;
  let xl: number;
  let xh: number;

  // East (+1) and west (-1) never cross between halves.
  xl = (pl << 1) & il;
  xh = (ph << 1) & ih;
  xl |= (xl << 1) & il;
  xh |= (xh << 1) & ih;
  xl |= (xl << 1) & il;
  xh |= (xh << 1) & ih;
  xl |= (xl << 1) & il;
  xh |= (xh << 1) & ih;
  xl |= (xl << 1) & il;
  xh |= (xh << 1) & ih;
  xl |= (xl << 1) & il;
  xh |= (xh << 1) & ih;
  ml |= (xl << 1) & el;
  mh |= (xh << 1) & eh;

  xl = (pl >>> 1) & il;
  xh = (ph >>> 1) & ih;
  xl |= (xl >>> 1) & il;
  xh |= (xh >>> 1) & ih;
  xl |= (xl >>> 1) & il;
  xh |= (xh >>> 1) & ih;
  xl |= (xl >>> 1) & il;
  xh |= (xh >>> 1) & ih;
  xl |= (xl >>> 1) & il;
  xh |= (xh >>> 1) & ih;
  xl |= (xl >>> 1) & il;
  xh |= (xh >>> 1) & ih;
  ml |= (xl >>> 1) & el;
  mh |= (xh >>> 1) & eh;

  // South (+8): row 4 carries into row 5.
  xl = (pl << 8) & ol;
  xh = ((ph << 8) | (pl >>> 24)) & oh;
  xh |= ((xh << 8) | (xl >>> 24)) & oh;
  xl |= (xl << 8) & ol;
  xh |= ((xh << 8) | (xl >>> 24)) & oh;
  xl |= (xl << 8) & ol;
  xh |= ((xh << 8) | (xl >>> 24)) & oh;
  xl |= (xl << 8) & ol;
  xh |= ((xh << 8) | (xl >>> 24)) & oh;
  xl |= (xl << 8) & ol;
  xh |= ((xh << 8) | (xl >>> 24)) & oh;
  xl |= (xl << 8) & ol;
  mh |= ((xh << 8) | (xl >>> 24)) & eh;
  ml |= (xl << 8) & el;

  // North (-8): row 5 carries into row 4.
  xh = (ph >>> 8) & oh;
  xl = ((pl >>> 8) | (ph << 24)) & ol;
  xl |= ((xl >>> 8) | (xh << 24)) & ol;
  xh |= (xh >>> 8) & oh;
  xl |= ((xl >>> 8) | (xh << 24)) & ol;
  xh |= (xh >>> 8) & oh;
  xl |= ((xl >>> 8) | (xh << 24)) & ol;
  xh |= (xh >>> 8) & oh;
  xl |= ((xl >>> 8) | (xh << 24)) & ol;
  xh |= (xh >>> 8) & oh;
  xl |= ((xl >>> 8) | (xh << 24)) & ol;
  xh |= (xh >>> 8) & oh;
  ml |= ((xl >>> 8) | (xh << 24)) & el;
  mh |= (xh >>> 8) & eh;

  // South-east (+9).
  xl = (pl << 9) & il;
  xh = ((ph << 9) | (pl >>> 23)) & ih;
  xh |= ((xh << 9) | (xl >>> 23)) & ih;
  xl |= (xl << 9) & il;
  xh |= ((xh << 9) | (xl >>> 23)) & ih;
  xl |= (xl << 9) & il;
  xh |= ((xh << 9) | (xl >>> 23)) & ih;
  xl |= (xl << 9) & il;
  xh |= ((xh << 9) | (xl >>> 23)) & ih;
  xl |= (xl << 9) & il;
  xh |= ((xh << 9) | (xl >>> 23)) & ih;
  xl |= (xl << 9) & il;
  mh |= ((xh << 9) | (xl >>> 23)) & eh;
  ml |= (xl << 9) & el;

  // North-west (-9).
  xh = (ph >>> 9) & ih;
  xl = ((pl >>> 9) | (ph << 23)) & il;
  xl |= ((xl >>> 9) | (xh << 23)) & il;
  xh |= (xh >>> 9) & ih;
  xl |= ((xl >>> 9) | (xh << 23)) & il;
  xh |= (xh >>> 9) & ih;
  xl |= ((xl >>> 9) | (xh << 23)) & il;
  xh |= (xh >>> 9) & ih;
  xl |= ((xl >>> 9) | (xh << 23)) & il;
  xh |= (xh >>> 9) & ih;
  xl |= ((xl >>> 9) | (xh << 23)) & il;
  xh |= (xh >>> 9) & ih;
  ml |= ((xl >>> 9) | (xh << 23)) & el;
  mh |= (xh >>> 9) & eh;

  // South-west (+7).
  xl = (pl << 7) & il;
  xh = ((ph << 7) | (pl >>> 25)) & ih;
  xh |= ((xh << 7) | (xl >>> 25)) & ih;
  xl |= (xl << 7) & il;
  xh |= ((xh << 7) | (xl >>> 25)) & ih;
  xl |= (xl << 7) & il;
  xh |= ((xh << 7) | (xl >>> 25)) & ih;
  xl |= (xl << 7) & il;
  xh |= ((xh << 7) | (xl >>> 25)) & ih;
  xl |= (xl << 7) & il;
  xh |= ((xh << 7) | (xl >>> 25)) & ih;
  xl |= (xl << 7) & il;
  mh |= ((xh << 7) | (xl >>> 25)) & eh;
  ml |= (xl << 7) & el;

  // North-east (-7).
  xh = (ph >>> 7) & ih;
  xl = ((pl >>> 7) | (ph << 25)) & il;
  xl |= ((xl >>> 7) | (xh << 25)) & il;
  xh |= (xh >>> 7) & ih;
  xl |= ((xl >>> 7) | (xh << 25)) & il;
  xh |= (xh >>> 7) & ih;
  xl |= ((xl >>> 7) | (xh << 25)) & il;
  xh |= (xh >>> 7) & ih;
  xl |= ((xl >>> 7) | (xh << 25)) & il;
  xh |= (xh >>> 7) & ih;
  xl |= ((xl >>> 7) | (xh << 25)) & il;
  xh |= (xh >>> 7) & ih;
  ml |= ((xl >>> 7) | (xh << 25)) & el;
  mh |= (xh >>> 7) & eh;

  mobilityHi = mh;
  return ml;
}

/**
 * Squares adjacent (in the eight directions) to a disc of the set, low half returned, high half in
 * `neighboursHi`. Potential mobility and frontier discs are built from it.
 */
export let neighboursHi = 0;

export function neighbours(l: number, h: number): number {
  const wl = l & 0x7f7f7f7f; // may step east
  const wh = h & 0x7f7f7f7f;
  const el = l & 0xfefefefe; // may step west
  const eh = h & 0xfefefefe;
  const rowl = l | (wl << 1) | (el >>> 1);
  const rowh = h | (wh << 1) | (eh >>> 1);
  // Spread the row-widened set one row up and one row down.
  const nl = rowl | (rowl << 8) | (rowl >>> 8) | (rowh << 24);
  const nh = rowh | (rowh << 8) | (rowl >>> 24) | (rowh >>> 8);
  neighboursHi = nh & ~h;
  return nl & ~l;
}
