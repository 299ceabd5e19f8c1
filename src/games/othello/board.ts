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
 * is left in `mobilityHi`. Per pair of opposite directions, a Kogge-Stone style fill (as in Edax's
 * get_some_moves): two single steps, then two double steps over the pairs of opponent discs, reach
 * the six discs a move can bracket in four steps instead of six. 64-bit shifts that cross between
 * the halves are spelled out; east-west runs never cross (the INNER mask cuts them at the edges).
 */
export let mobilityHi = 0;

export function mobility(pl: number, ph: number, ol: number, oh: number): number {
  const il = ol & INNER;
  const ih = oh & INNER;
  let ml: number;
  let mh: number;
  let fl: number;
  let fh: number;
  let rl: number;
  let rh: number;
  let pairL: number;
  let pairH: number;
  let pairRL: number;
  let pairRH: number;

  // East (+1) / west (-1): within each half.
  fl = il & (pl << 1);
  fh = ih & (ph << 1);
  rl = il & (pl >>> 1);
  rh = ih & (ph >>> 1);
  fl |= il & (fl << 1);
  fh |= ih & (fh << 1);
  rl |= il & (rl >>> 1);
  rh |= ih & (rh >>> 1);
  pairL = il & (il << 1);
  pairH = ih & (ih << 1);
  pairRL = pairL >>> 1;
  pairRH = pairH >>> 1;
  fl |= pairL & (fl << 2);
  fh |= pairH & (fh << 2);
  rl |= pairRL & (rl >>> 2);
  rh |= pairRH & (rh >>> 2);
  fl |= pairL & (fl << 2);
  fh |= pairH & (fh << 2);
  rl |= pairRL & (rl >>> 2);
  rh |= pairRH & (rh >>> 2);
  ml = (fl << 1) | (rl >>> 1);
  mh = (fh << 1) | (rh >>> 1);

  // South (+8) / north (-8): the full opponent set (no wrap), rows cross between halves.
  fh = oh & ((ph << 8) | (pl >>> 24));
  fl = ol & (pl << 8);
  rl = ol & ((pl >>> 8) | (ph << 24));
  rh = oh & (ph >>> 8);
  fh |= oh & ((fh << 8) | (fl >>> 24));
  fl |= ol & (fl << 8);
  rl |= ol & ((rl >>> 8) | (rh << 24));
  rh |= oh & (rh >>> 8);
  pairH = oh & ((oh << 8) | (ol >>> 24));
  pairL = ol & (ol << 8);
  pairRL = (pairL >>> 8) | (pairH << 24);
  pairRH = pairH >>> 8;
  fh |= pairH & ((fh << 16) | (fl >>> 16));
  fl |= pairL & (fl << 16);
  rl |= pairRL & ((rl >>> 16) | (rh << 16));
  rh |= pairRH & (rh >>> 16);
  fh |= pairH & ((fh << 16) | (fl >>> 16));
  fl |= pairL & (fl << 16);
  rl |= pairRL & ((rl >>> 16) | (rh << 16));
  rh |= pairRH & (rh >>> 16);
  mh |= (fh << 8) | (fl >>> 24) | (rh >>> 8);
  ml |= (fl << 8) | (rl >>> 8) | (rh << 24);

  // South-east (+9) / north-west (-9).
  fh = ih & ((ph << 9) | (pl >>> 23));
  fl = il & (pl << 9);
  rl = il & ((pl >>> 9) | (ph << 23));
  rh = ih & (ph >>> 9);
  fh |= ih & ((fh << 9) | (fl >>> 23));
  fl |= il & (fl << 9);
  rl |= il & ((rl >>> 9) | (rh << 23));
  rh |= ih & (rh >>> 9);
  pairH = ih & ((ih << 9) | (il >>> 23));
  pairL = il & (il << 9);
  pairRL = (pairL >>> 9) | (pairH << 23);
  pairRH = pairH >>> 9;
  fh |= pairH & ((fh << 18) | (fl >>> 14));
  fl |= pairL & (fl << 18);
  rl |= pairRL & ((rl >>> 18) | (rh << 14));
  rh |= pairRH & (rh >>> 18);
  fh |= pairH & ((fh << 18) | (fl >>> 14));
  fl |= pairL & (fl << 18);
  rl |= pairRL & ((rl >>> 18) | (rh << 14));
  rh |= pairRH & (rh >>> 18);
  mh |= (fh << 9) | (fl >>> 23) | (rh >>> 9);
  ml |= (fl << 9) | (rl >>> 9) | (rh << 23);

  // South-west (+7) / north-east (-7).
  fh = ih & ((ph << 7) | (pl >>> 25));
  fl = il & (pl << 7);
  rl = il & ((pl >>> 7) | (ph << 25));
  rh = ih & (ph >>> 7);
  fh |= ih & ((fh << 7) | (fl >>> 25));
  fl |= il & (fl << 7);
  rl |= il & ((rl >>> 7) | (rh << 25));
  rh |= ih & (rh >>> 7);
  pairH = ih & ((ih << 7) | (il >>> 25));
  pairL = il & (il << 7);
  pairRL = (pairL >>> 7) | (pairH << 25);
  pairRH = pairH >>> 7;
  fh |= pairH & ((fh << 14) | (fl >>> 18));
  fl |= pairL & (fl << 14);
  rl |= pairRL & ((rl >>> 14) | (rh << 18));
  rh |= pairRH & (rh >>> 14);
  fh |= pairH & ((fh << 14) | (fl >>> 18));
  fl |= pairL & (fl << 14);
  rl |= pairRL & ((rl >>> 14) | (rh << 18));
  rh |= pairRH & (rh >>> 14);
  mh |= (fh << 7) | (fl >>> 25) | (rh >>> 7);
  ml |= (fl << 7) | (rl >>> 7) | (rh << 25);

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
