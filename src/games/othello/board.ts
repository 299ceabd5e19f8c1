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
  // Both terms non-negative: V8 adds in int32 (x - (x >>> 1 & m) was compiled to double arithmetic).
  x = (x & 0x55555555) + ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Excludes columns a and h: a run of discs along a non-vertical line never wraps around the board. */
const INNER = 0x7e7e7e7e;

/**
 * Legal-move squares of the player `p` against the opponent `o`. Returns the low half; the high half
 * is left in `mobilityHi`.
 *
 * East (+1) runs stay within a half: adding the first disc of each opponent run to the run carries
 * to the square just past it. West (-1) is a Kogge-Stone fill (as in Edax's get_some_moves). The
 * other six directions fill one half completely first (a run holds at most three discs there), then
 * seed the other half once from the boundary row: one crossing per direction instead of one per step.
 */
export let mobilityHi = 0;

export function mobility(pl: number, ph: number, ol: number, oh: number): number {
  const il = ol & INNER;
  const ih = oh & INNER;
  let fl: number;
  let fh: number;

  // East: (run + its first disc) | 0 keeps the sum int32 (a carry may reach bit 31). Opponent
  // discs left in the sum go with the final mask of empty squares.
  let ml = (il + (il & (pl << 1))) | 0;
  let mh = (ih + (ih & (ph << 1))) | 0;

  // West: two single steps, then two double steps over pairs of opponent discs.
  fl = il & (pl >>> 1);
  fh = ih & (ph >>> 1);
  fl |= il & (fl >>> 1);
  fh |= ih & (fh >>> 1);
  const pairL = il & (il >>> 1);
  const pairH = ih & (ih >>> 1);
  fl |= pairL & (fl >>> 2);
  fh |= pairH & (fh >>> 2);
  fl |= pairL & (fl >>> 2);
  fh |= pairH & (fh >>> 2);
  ml |= fl >>> 1;
  mh |= fh >>> 1;

  // South (+8): low half, then the high half seeded from row 4.
  fl = ol & (pl << 8);
  fl |= ol & (fl << 8);
  fl |= ol & (fl << 8);
  fh = oh & ((ph << 8) | ((pl | fl) >>> 24));
  fh |= oh & (fh << 8);
  fh |= oh & (fh << 8);
  ml |= fl << 8;
  mh |= (fh << 8) | (fl >>> 24);

  // North (-8): high half, then the low half seeded from row 5.
  fh = oh & (ph >>> 8);
  fh |= oh & (fh >>> 8);
  fh |= oh & (fh >>> 8);
  fl = ol & ((pl >>> 8) | ((ph | fh) << 24));
  fl |= ol & (fl >>> 8);
  fl |= ol & (fl >>> 8);
  mh |= fh >>> 8;
  ml |= (fl >>> 8) | (fh << 24);

  // South-east (+9).
  fl = il & (pl << 9);
  fl |= il & (fl << 9);
  fl |= il & (fl << 9);
  fh = ih & ((ph << 9) | ((pl | fl) >>> 23));
  fh |= ih & (fh << 9);
  fh |= ih & (fh << 9);
  ml |= fl << 9;
  mh |= (fh << 9) | (fl >>> 23);

  // North-west (-9).
  fh = ih & (ph >>> 9);
  fh |= ih & (fh >>> 9);
  fh |= ih & (fh >>> 9);
  fl = il & ((pl >>> 9) | ((ph | fh) << 23));
  fl |= il & (fl >>> 9);
  fl |= il & (fl >>> 9);
  mh |= fh >>> 9;
  ml |= (fl >>> 9) | (fh << 23);

  // South-west (+7).
  fl = il & (pl << 7);
  fl |= il & (fl << 7);
  fl |= il & (fl << 7);
  fh = ih & ((ph << 7) | ((pl | fl) >>> 25));
  fh |= ih & (fh << 7);
  fh |= ih & (fh << 7);
  ml |= fl << 7;
  mh |= (fh << 7) | (fl >>> 25);

  // North-east (-7).
  fh = ih & (ph >>> 7);
  fh |= ih & (fh >>> 7);
  fh |= ih & (fh >>> 7);
  fl = il & ((pl >>> 7) | ((ph | fh) << 25));
  fl |= il & (fl >>> 7);
  fl |= il & (fl >>> 7);
  mh |= fh >>> 7;
  ml |= (fl >>> 7) | (fh << 25);

  mobilityHi = mh & ~(ph | oh);
  return ml & ~(pl | ol);
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
