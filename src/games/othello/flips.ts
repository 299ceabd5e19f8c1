/**
 * Discs flipped by a move, straight from the bitboards (no mailbox): the endgame solver passes
 * boards by value down its recursion, so it needs flips as a pure function of (square, boards).
 *
 * Along each of the eight rays from the square, the nearest square that is not an opponent disc
 * (the "blocker") is the lowest set bit of `ray & ~opponent` for rays going up the square index,
 * the highest for rays going down. The discs in between flip when the blocker is an own disc.
 */
import { SQUARES } from './board.js';

/** Ray masks per direction slot (0..3 increasing: +1, +7, +8, +9; 4..7 decreasing: -1, -7, -8, -9). */
const RAY_LO = new Int32Array(8 * SQUARES);
const RAY_HI = new Int32Array(8 * SQUARES);
const STEPS: readonly [number, number][] = [
  [0, 1],
  [1, -1],
  [1, 0],
  [1, 1],
  [0, -1],
  [-1, 1],
  [-1, 0],
  [-1, -1],
];
/** Squares adjacent to each square: a move is only possible next to an opponent disc. */
export const ADJACENT_LO = new Int32Array(SQUARES);
export const ADJACENT_HI = new Int32Array(SQUARES);
/** Bit of each square in its half, and which half (0 low, 1 high). */
export const SQUARE_BIT = new Int32Array(SQUARES);

for (let sq = 0; sq < SQUARES; sq++) {
  SQUARE_BIT[sq] = 1 << (sq & 31);
  const row = sq >> 3;
  const col = sq & 7;
  STEPS.forEach(([dr, dc], d) => {
    let r = row + dr;
    let c = col + dc;
    if (r >= 0 && r < 8 && c >= 0 && c < 8) {
      const n = r * 8 + c;
      if (n < 32) ADJACENT_LO[sq] |= 1 << n;
      else ADJACENT_HI[sq] |= 1 << (n - 32);
    }
    while (r >= 0 && r < 8 && c >= 0 && c < 8) {
      const s = r * 8 + c;
      if (s < 32) RAY_LO[d * SQUARES + sq] |= 1 << s;
      else RAY_HI[d * SQUARES + sq] |= 1 << (s - 32);
      r += dr;
      c += dc;
    }
  });
}

/** High half of the last `flips` result. */
export let flipsHi = 0;

/**
 * Discs the player (pl, ph) flips by playing `sq` against (ol, oh): low half returned, high half
 * in `flipsHi`. Zero flips means the move is illegal.
 */
export function flips(sq: number, pl: number, ph: number, ol: number, oh: number): number {
  return sq < 32 ? flipsLowSquare(sq, pl, ph, ol, oh) : flipsHighSquare(sq, pl, ph, ol, oh);
}

/*
 * The eight rays unrolled, no branch (a loop over rays, and branches on the blockers, measured
 * slower in V8). Increasing ray: blocker b = lowest bit of ray & ~o, flipped = the ray below b if b
 * is own. Decreasing ray: blocker = highest bit (0x80000000 >>> clz32 is 0 for no bit), flipped =
 * the ray above it. From a low-half square the east ray and the decreasing rays stay in the low
 * half; the three rays going up a row continue in the high half when their low part is all
 * opponent discs (`zero` = -1 when there is no blocker in it). Mirrored for high-half squares.
 */

/** `flips` for a square of the low half (0..31). */
export function flipsLowSquare(sq: number, pl: number, ph: number, ol: number, oh: number): number {
  const nol = ~ol;
  const noh = ~oh;
  let fl = 0;
  let fh = 0;
  let r: number;
  let b: number;
  let zero: number;
  let m: number;
  r = RAY_LO[sq + 0];
  b = r & nol;
  b &= -b;
  fl |= r & (b - 1) & (-(b & pl) >> 31);
  r = RAY_LO[sq + 256];
  b = r & nol;
  b &= 0x80000000 >>> Math.clz32(b);
  fl |= r & -((b & pl) << 1);
  r = RAY_LO[sq + 320];
  b = r & nol;
  b &= 0x80000000 >>> Math.clz32(b);
  fl |= r & -((b & pl) << 1);
  r = RAY_LO[sq + 384];
  b = r & nol;
  b &= 0x80000000 >>> Math.clz32(b);
  fl |= r & -((b & pl) << 1);
  r = RAY_LO[sq + 448];
  b = r & nol;
  b &= 0x80000000 >>> Math.clz32(b);
  fl |= r & -((b & pl) << 1);
  r = RAY_LO[sq + 64];
  b = r & nol;
  zero = ((b - 1) & ~b) >> 31;
  b &= -b;
  fl |= r & (b - 1) & (-(b & pl) >> 31);
  b = RAY_HI[sq + 64] & noh & zero;
  b &= -b;
  m = -(b & ph) >> 31;
  fl |= r & m;
  fh |= RAY_HI[sq + 64] & (b - 1) & m;
  r = RAY_LO[sq + 128];
  b = r & nol;
  zero = ((b - 1) & ~b) >> 31;
  b &= -b;
  fl |= r & (b - 1) & (-(b & pl) >> 31);
  b = RAY_HI[sq + 128] & noh & zero;
  b &= -b;
  m = -(b & ph) >> 31;
  fl |= r & m;
  fh |= RAY_HI[sq + 128] & (b - 1) & m;
  r = RAY_LO[sq + 192];
  b = r & nol;
  zero = ((b - 1) & ~b) >> 31;
  b &= -b;
  fl |= r & (b - 1) & (-(b & pl) >> 31);
  b = RAY_HI[sq + 192] & noh & zero;
  b &= -b;
  m = -(b & ph) >> 31;
  fl |= r & m;
  fh |= RAY_HI[sq + 192] & (b - 1) & m;
  flipsHi = fh;
  return fl;
}

/** `flips` for a square of the high half (32..63). */
export function flipsHighSquare(sq: number, pl: number, ph: number, ol: number, oh: number): number {
  const nol = ~ol;
  const noh = ~oh;
  let fl = 0;
  let fh = 0;
  let r: number;
  let b: number;
  let zero: number;
  let m: number;
  r = RAY_HI[sq + 256];
  b = r & noh;
  b &= 0x80000000 >>> Math.clz32(b);
  fh |= r & -((b & ph) << 1);
  r = RAY_HI[sq + 0];
  b = r & noh;
  b &= -b;
  fh |= r & (b - 1) & (-(b & ph) >> 31);
  r = RAY_HI[sq + 64];
  b = r & noh;
  b &= -b;
  fh |= r & (b - 1) & (-(b & ph) >> 31);
  r = RAY_HI[sq + 128];
  b = r & noh;
  b &= -b;
  fh |= r & (b - 1) & (-(b & ph) >> 31);
  r = RAY_HI[sq + 192];
  b = r & noh;
  b &= -b;
  fh |= r & (b - 1) & (-(b & ph) >> 31);
  r = RAY_HI[sq + 320];
  b = r & noh;
  zero = ((b - 1) & ~b) >> 31;
  b &= 0x80000000 >>> Math.clz32(b);
  fh |= r & -((b & ph) << 1);
  b = RAY_LO[sq + 320] & nol & zero;
  b &= 0x80000000 >>> Math.clz32(b);
  m = -(b & pl) >> 31;
  fh |= r & m;
  fl |= RAY_LO[sq + 320] & -(b << 1) & m;
  r = RAY_HI[sq + 384];
  b = r & noh;
  zero = ((b - 1) & ~b) >> 31;
  b &= 0x80000000 >>> Math.clz32(b);
  fh |= r & -((b & ph) << 1);
  b = RAY_LO[sq + 384] & nol & zero;
  b &= 0x80000000 >>> Math.clz32(b);
  m = -(b & pl) >> 31;
  fh |= r & m;
  fl |= RAY_LO[sq + 384] & -(b << 1) & m;
  r = RAY_HI[sq + 448];
  b = r & noh;
  zero = ((b - 1) & ~b) >> 31;
  b &= 0x80000000 >>> Math.clz32(b);
  fh |= r & -((b & ph) << 1);
  b = RAY_LO[sq + 448] & nol & zero;
  b &= 0x80000000 >>> Math.clz32(b);
  m = -(b & pl) >> 31;
  fh |= r & m;
  fl |= RAY_LO[sq + 448] & -(b << 1) & m;
  flipsHi = fh;
  return fl;
}

/**
 * Discs flipped by the last move of the game, counted without playing it (as Edax's
 * count_last_flip): with one empty square left every other square holds a disc, so along each of
 * the square's four lines the flips depend only on where the mover's discs are. LAST_FLIPS[p * 256
 * + line] counts the opponent discs bracketed next to position p of an 8-square line whose mover
 * discs are `line`. Rows are indexed by column, columns by row, both diagonals by column (squares
 * off a short diagonal read as "no mover disc", which brackets nothing).
 */
const LAST_FLIPS = new Uint8Array(8 * 256);
for (let p = 0; p < 8; p++) {
  for (let line = 0; line < 256; line++) {
    if ((line >> p) & 1) continue;
    let n = 0;
    for (const step of [-1, 1]) {
      let run = 0;
      let i = p + step;
      while (i >= 0 && i < 8 && ((line >> i) & 1) === 0) {
        run++;
        i += step;
      }
      if (i >= 0 && i < 8) n += run;
    }
    LAST_FLIPS[p * 256 + line] = n;
  }
}
/** Per square, its a1-h8 diagonal and a8-h1 anti-diagonal masks (both halves). */
const DIAG_LO = new Int32Array(SQUARES);
const DIAG_HI = new Int32Array(SQUARES);
const ANTI_LO = new Int32Array(SQUARES);
const ANTI_HI = new Int32Array(SQUARES);
for (let sq = 0; sq < SQUARES; sq++) {
  const row = sq >> 3;
  const col = sq & 7;
  for (let r = 0; r < 8; r++) {
    const d = col - row + r;
    if (d >= 0 && d < 8) {
      const s = r * 8 + d;
      if (s < 32) DIAG_LO[sq] |= 1 << s;
      else DIAG_HI[sq] |= 1 << (s - 32);
    }
    const a = col + row - r;
    if (a >= 0 && a < 8) {
      const s = r * 8 + a;
      if (s < 32) ANTI_LO[sq] |= 1 << s;
      else ANTI_HI[sq] |= 1 << (s - 32);
    }
  }
}

/** Discs the mover (pl, ph) would flip at `sq`, the only empty square of the board. */
export function countLastFlips(sq: number, pl: number, ph: number): number {
  const row = sq >> 3;
  const col = sq & 7;
  const rowBits = (row < 4 ? pl >>> (row << 3) : ph >>> ((row - 4) << 3)) & 0xff;
  const colBits =
    ((Math.imul((pl >>> col) & 0x01010101, 0x01020408) >>> 24) & 15) | (((Math.imul((ph >>> col) & 0x01010101, 0x01020408) >>> 24) & 15) << 4);
  let d = (pl & DIAG_LO[sq]) | (ph & DIAG_HI[sq]);
  d |= d >>> 16;
  d |= d >>> 8;
  let a = (pl & ANTI_LO[sq]) | (ph & ANTI_HI[sq]);
  a |= a >>> 16;
  a |= a >>> 8;
  const c = col << 8;
  return LAST_FLIPS[c + rowBits] + LAST_FLIPS[(row << 8) + colBits] + LAST_FLIPS[c + (d & 0xff)] + LAST_FLIPS[c + (a & 0xff)];
}
