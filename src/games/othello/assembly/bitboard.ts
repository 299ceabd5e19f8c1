/**
 * Bitboard helpers shared by the WebAssembly kernels (endgame.ts, search.ts): a board is a u64, bit
 * row * 8 + col. Not tsc input; AssemblyScript's `u64`, `unchecked`, `clz` are used.
 */

// @ts-ignore: decorator
@inline
export function board(lo: i32, hi: i32): u64 {
  return ((<u64>(<u32>hi)) << 32) | <u64>(<u32>lo);
}

// @ts-ignore: decorator
@inline
export function bit(sq: i32): u64 {
  return (<u64>1) << (<u64>sq);
}

/**
 * Per position c of an 8-square line and opponent discs on its inner squares (bits 1..6 as 0..5):
 * OUTFLANK = the squares just past the opponent runs touching c (an own disc there brackets them);
 * FLIPPED[c * 256 + outflank] = the squares strictly between c and those squares (flips.ts's tables).
 */
const OUTFLANK = new StaticArray<u8>(8 * 64);
const FLIPPED = new StaticArray<u8>(8 * 256);
/** Per square, its a1-h8 diagonal and a8-h1 anti-diagonal. */
const DIAGONAL = new StaticArray<u64>(64);
const ANTI_DIAGONAL = new StaticArray<u64>(64);
for (let c = 0; c < 8; c++) {
  for (let o6 = 0; o6 < 64; o6++) {
    const o8 = o6 << 1;
    let out = 0;
    for (let step = -1; step <= 1; step += 2) {
      let j = c + step;
      while (j >= 0 && j < 8 && ((o8 >> j) & 1) != 0) j += step;
      if (j != c + step && j >= 0 && j < 8) out |= 1 << j;
    }
    OUTFLANK[(c << 6) | o6] = <u8>out;
  }
  for (let out = 0; out < 256; out++) {
    let f = 0;
    for (let j = 0; j < 8; j++) {
      if (((out >> j) & 1) == 0) continue;
      for (let k = min(c, j) + 1; k < max(c, j); k++) f |= 1 << k;
    }
    FLIPPED[(c << 8) | out] = <u8>f;
  }
}
for (let sq = 0; sq < 64; sq++) {
  const row = sq >> 3;
  const col = sq & 7;
  let diagonal: u64 = 0;
  let anti: u64 = 0;
  for (let r = 0; r < 8; r++) {
    const d = col - row + r;
    if (d >= 0 && d < 8) diagonal |= (<u64>1) << (<u64>(r * 8 + d));
    const a = col + row - r;
    if (a >= 0 && a < 8) anti |= (<u64>1) << (<u64>(r * 8 + a));
  }
  DIAGONAL[sq] = diagonal;
  ANTI_DIAGONAL[sq] = anti;
}

const FILE_A: u64 = 0x0101010101010101;
/** Gathers a column (row k at bit 8k) into a byte (row k at bit k): no two products share a bit. */
const COLUMN_GATHER: u64 = 0x0102040810204080;
/** Spreads a byte (bit k) back to a column (bit 8k); a flipped byte never holds bits 0 and 7, so no products collide. */
const COLUMN_SPREAD: u64 = 0x0002040810204081;

/** The flipped squares of one line given as bytes (position c, own and opponent discs along the line). */
// @ts-ignore: decorator
@inline
function lineFlips(c: i32, p8: i32, o8: i32): u64 {
  return <u64>unchecked(FLIPPED[(c << 8) | (<i32>unchecked(OUTFLANK[(c << 6) | ((o8 >> 1) & 63)]) & p8)]);
}

/**
 * Discs flipped when the player p plays on sq against o: each of the four lines through sq gathered
 * into a byte, flipped by table, spread back (Edax's kindergarten flips; flips.ts does the same on halves).
 */
export function flips(sq: i32, p: u64, o: u64): u64 {
  const c = sq & 7;
  const r = sq >> 3;
  const rowShift = <u64>(r << 3);
  let f = lineFlips(c, <i32>((p >> rowShift) & 0xff), <i32>((o >> rowShift) & 0xff)) << rowShift;
  let mask = unchecked(DIAGONAL[sq]);
  let line = lineFlips(c, <i32>(((p & mask) * FILE_A) >> 56), <i32>(((o & mask) * FILE_A) >> 56));
  f |= (line * FILE_A) & mask;
  mask = unchecked(ANTI_DIAGONAL[sq]);
  line = lineFlips(c, <i32>(((p & mask) * FILE_A) >> 56), <i32>(((o & mask) * FILE_A) >> 56));
  f |= (line * FILE_A) & mask;
  const colShift = <u64>c;
  line = lineFlips(r, <i32>((((p >> colShift) & FILE_A) * COLUMN_GATHER) >> 56), <i32>((((o >> colShift) & FILE_A) * COLUMN_GATHER) >> 56));
  f |= ((line * COLUMN_SPREAD) & FILE_A) << colShift;
  return f;
}

/**
 * LAST_COUNT[c * 256 + p8]: discs flipped along a line by a move at position c when p8 holds the mover's discs
 * and every other square of the line is the opponent's (the last empty square). A diagonal's gathered byte has
 * zeros off the board, read as opponent runs that reach the byte's end unbracketed, so they flip nothing.
 */
const LAST_COUNT = new StaticArray<u8>(8 * 256);
for (let c = 0; c < 8; c++) {
  for (let p8 = 0; p8 < 256; p8++) {
    let n = 0;
    for (let step = -1; step <= 1; step += 2) {
      let j = c + step;
      while (j >= 0 && j < 8 && ((p8 >> j) & 1) == 0) j += step;
      if (j >= 0 && j < 8) n += step > 0 ? j - c - 1 : c - j - 1;
    }
    LAST_COUNT[(c << 8) | p8] = <u8>n;
  }
}

/**
 * popcnt(flips(sq, p, ~(p | bit(sq)))) without the flips: the count of discs p flips on the last empty square,
 * one table read per line (Edax's count_last_flip).
 */
export function lastFlipCount(sq: i32, p: u64): i32 {
  const c = sq & 7;
  const r = sq >> 3;
  const cBase = c << 8;
  let n = <i32>unchecked(LAST_COUNT[cBase | <i32>((p >> <u64>(r << 3)) & 0xff)]);
  n += <i32>unchecked(LAST_COUNT[cBase | <i32>(((p & unchecked(DIAGONAL[sq])) * FILE_A) >> 56)]);
  n += <i32>unchecked(LAST_COUNT[cBase | <i32>(((p & unchecked(ANTI_DIAGONAL[sq])) * FILE_A) >> 56)]);
  n += <i32>unchecked(LAST_COUNT[(r << 8) | <i32>((((p >> <u64>c) & FILE_A) * COLUMN_GATHER) >> 56)]);
  return n;
}

/** Moves of p along one direction pair (+d and -d) through the opponent discs in mask (Kogge-Stone, as Edax). */
// @ts-ignore: decorator
@inline
function movesAlong(p: u64, mask: u64, d: u64): u64 {
  const d2 = d + d;
  let up = mask & (p << d);
  up |= mask & (up << d);
  const pairUp = mask & (mask << d);
  up |= pairUp & (up << d2);
  up |= pairUp & (up << d2);
  let down = mask & (p >> d);
  down |= mask & (down >> d);
  const pairDown = mask & (mask >> d);
  down |= pairDown & (down >> d2);
  down |= pairDown & (down >> d2);
  return (up << d) | (down >> d);
}

/** Legal moves of p against o (any correct generator gives the same set as board.ts's mobility). */
export function mobility(p: u64, o: u64): u64 {
  const inner = o & 0x7e7e7e7e7e7e7e7e;
  const moves = movesAlong(p, inner, 1) | movesAlong(p, o, 8) | movesAlong(p, inner, 7) | movesAlong(p, inner, 9);
  return moves & ~(p | o);
}
