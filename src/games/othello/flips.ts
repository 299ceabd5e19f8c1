/**
 * Discs flipped by a move, straight from the bitboards (no mailbox): the endgame solver passes
 * boards by value down its recursion, so it needs flips as a pure function of (square, boards).
 * Rows and diagonals use line tables, columns the nearest non-opponent square of each ray (see
 * flipsLowSquare). perft's recursion lives here too, for these module-local tables (perftMoves).
 */
import { SQUARES, mobility, mobilityHi } from './board.js';

/** board.ts's INNER (a module's own constant is folded by V8; an imported one is loaded each time). */
const INNER = 0x7e7e7e7e;

/** Per square, the squares below it in its column (higher index: DOWN) and above it (UP), both halves. */
const DOWN_LO = new Int32Array(SQUARES);
const DOWN_HI = new Int32Array(SQUARES);
const UP_LO = new Int32Array(SQUARES);
const UP_HI = new Int32Array(SQUARES);
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
  for (const [dr, dc] of STEPS) {
    const r = row + dr;
    const c = col + dc;
    if (r >= 0 && r < 8 && c >= 0 && c < 8) {
      const n = r * 8 + c;
      if (n < 32) ADJACENT_LO[sq] |= 1 << n;
      else ADJACENT_HI[sq] |= 1 << (n - 32);
    }
  }
  for (let r = row + 1; r < 8; r++) {
    if (r < 4) DOWN_LO[sq] |= 1 << (r * 8 + col);
    else DOWN_HI[sq] |= 1 << (r * 8 + col - 32);
  }
  for (let r = row - 1; r >= 0; r--) {
    if (r < 4) UP_LO[sq] |= 1 << (r * 8 + col);
    else UP_HI[sq] |= 1 << (r * 8 + col - 32);
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

/**
 * Per position c of an 8-square line and opponent discs on its inner squares (bits 1..6 as 0..5):
 * OUTFLANK = the squares just past the opponent runs touching c (an own disc there brackets them);
 * FLIPPED[c * 256 + outflank] = the squares strictly between c and those squares.
 */
const OUTFLANK = new Uint8Array(8 * 64);
const FLIPPED = new Uint8Array(8 * 256);
for (let c = 0; c < 8; c++) {
  for (let o6 = 0; o6 < 64; o6++) {
    const o8 = o6 << 1;
    let out = 0;
    for (const step of [-1, 1]) {
      let j = c + step;
      while (j >= 0 && j < 8 && (o8 >> j) & 1) j += step;
      if (j !== c + step && j >= 0 && j < 8) out |= 1 << j;
    }
    OUTFLANK[(c << 6) | o6] = out;
  }
  for (let out = 0; out < 256; out++) {
    let f = 0;
    for (let j = 0; j < 8; j++) {
      if (!((out >> j) & 1)) continue;
      for (let k = Math.min(c, j) + 1; k < Math.max(c, j); k++) f |= 1 << k;
    }
    FLIPPED[(c << 8) | out] = f;
  }
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
 * Rows and both diagonals by table (as Edax's flip_kindergarten): the line's discs gathered into
 * 8 bits by column, OUTFLANK gives the squares just past the opponent runs next to the move, those
 * holding an own disc index FLIPPED, and the flipped byte is spread back over the line's mask.
 * Columns by rays: increasing ray: blocker b = lowest bit of ray & ~o, flipped = the ray below b if
 * b is own; decreasing: blocker = highest bit (0x80000000 >>> clz32 is 0 for no bit), flipped = the
 * ray above it. The ray going towards the other half continues there when its part in this half is
 * all opponent discs (`zero` = -1 when it has no blocker). No branches: those measured slower in V8.
 */

/** Low-half `flips`, sq 0..31. */
export function flipsLowSquare(sq: number, pl: number, ph: number, ol: number, oh: number): number {
  const c = sq & 7;
  const s = sq & 24;
  let fl = FLIPPED[(c << 8) | (OUTFLANK[(c << 6) | ((ol >>> (s + 1)) & 63)] & (pl >>> s))] << s;
  let fh: number;
  let o: number;
  let p: number;
  let f: number;
  let ml = DIAG_LO[sq];
  let mh = DIAG_HI[sq];
  o = Math.imul((ol & ml) | (oh & mh), 0x01010101) >>> 24;
  p = Math.imul((pl & ml) | (ph & mh), 0x01010101) >>> 24;
  f = Math.imul(FLIPPED[(c << 8) | (OUTFLANK[(c << 6) | ((o >>> 1) & 63)] & p)], 0x01010101);
  fl |= f & ml;
  fh = f & mh;
  ml = ANTI_LO[sq];
  mh = ANTI_HI[sq];
  o = Math.imul((ol & ml) | (oh & mh), 0x01010101) >>> 24;
  p = Math.imul((pl & ml) | (ph & mh), 0x01010101) >>> 24;
  f = Math.imul(FLIPPED[(c << 8) | (OUTFLANK[(c << 6) | ((o >>> 1) & 63)] & p)], 0x01010101);
  fl |= f & ml;
  fh |= f & mh;
  // North: within the low half.
  let r = UP_LO[sq];
  let b = r & ~ol;
  b &= 0x80000000 >>> Math.clz32(b);
  fl |= r & -((b & pl) << 1);
  // South: may continue into the high half.
  r = DOWN_LO[sq];
  b = r & ~ol;
  const zero = ((b - 1) & ~b) >> 31;
  b &= -b;
  fl |= r & (b - 1) & (-(b & pl) >> 31);
  const rh = DOWN_HI[sq];
  b = rh & ~oh & zero;
  b &= -b;
  const m = -(b & ph) >> 31;
  fl |= r & m;
  flipsHi = fh | (rh & (b - 1) & m);
  return fl;
}

/** High-half `flips`, sq 32..63. */
export function flipsHighSquare(sq: number, pl: number, ph: number, ol: number, oh: number): number {
  const c = sq & 7;
  const s = sq & 24;
  let fh = FLIPPED[(c << 8) | (OUTFLANK[(c << 6) | ((oh >>> (s + 1)) & 63)] & (ph >>> s))] << s;
  let fl: number;
  let o: number;
  let p: number;
  let f: number;
  let ml = DIAG_LO[sq];
  let mh = DIAG_HI[sq];
  o = Math.imul((ol & ml) | (oh & mh), 0x01010101) >>> 24;
  p = Math.imul((pl & ml) | (ph & mh), 0x01010101) >>> 24;
  f = Math.imul(FLIPPED[(c << 8) | (OUTFLANK[(c << 6) | ((o >>> 1) & 63)] & p)], 0x01010101);
  fl = f & ml;
  fh |= f & mh;
  ml = ANTI_LO[sq];
  mh = ANTI_HI[sq];
  o = Math.imul((ol & ml) | (oh & mh), 0x01010101) >>> 24;
  p = Math.imul((pl & ml) | (ph & mh), 0x01010101) >>> 24;
  f = Math.imul(FLIPPED[(c << 8) | (OUTFLANK[(c << 6) | ((o >>> 1) & 63)] & p)], 0x01010101);
  fl |= f & ml;
  fh |= f & mh;
  // South: within the high half.
  let r = DOWN_HI[sq];
  let b = r & ~oh;
  b &= -b;
  fh |= r & (b - 1) & (-(b & ph) >> 31);
  // North: may continue into the low half.
  r = UP_HI[sq];
  b = r & ~oh;
  const zero = ((b - 1) & ~b) >> 31;
  b &= 0x80000000 >>> Math.clz32(b);
  fh |= r & -((b & ph) << 1);
  const rl = UP_LO[sq];
  b = rl & ~ol & zero;
  b &= 0x80000000 >>> Math.clz32(b);
  const m = -(b & pl) >> 31;
  flipsHi = fh | (r & m);
  return fl | (rl & -(b << 1) & m);
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

/**
 * perft(depth) of the position where the player (pl, ph) moves against (ol, oh), on bitboards passed
 * by value; a pass is one ply, a game finished before `depth` counts `finished` (0 or 1). Here and
 * not in perft.ts: see perftMoves.
 */
export function perftBits(pl: number, ph: number, ol: number, oh: number, depth: number, finished: number): number {
  if (depth === 0) return 1;
  const ml = mobility(pl, ph, ol, oh);
  const mh = mobilityHi;
  if ((ml | mh) === 0) {
    if ((mobility(ol, oh, pl, ph) | mobilityHi) === 0) return finished;
    return perftBits(ol, oh, pl, ph, depth - 1, finished);
  }
  return depth === 1 ? popcount2(ml, mh) : perftMoves(pl, ph, ol, oh, ml, mh, depth, finished);
}

/**
 * perftBits for depth >= 2 with the player's moves (ml, mh) known (not empty). Each move is played
 * and the replies generated in the loop, with the bodies of flipsLowSquare, flipsHighSquare and
 * board.ts's mobility written out again: V8 inlines none of them (too large), and without the calls
 * perft is about 15% faster (a copy in perft.ts measured slower: it reads these tables through
 * another module's bindings). The perft tests check every path against perft.json.
 */
function perftMoves(pl: number, ph: number, ol: number, oh: number, ml: number, mh: number, depth: number, finished: number): number {
  const below = depth - 1;
  let total = 0;
  while ((ml | mh) !== 0) {
    // The move flips (gl, gh); then the opponent (cl, ch) moves against (dl, dh).
    let gl: number;
    let gh: number;
    let dl: number;
    let dh: number;
    if (ml !== 0) {
      const sq = 31 - Math.clz32(ml);
      const bit = 1 << sq;
      ml ^= bit;
      const c = sq & 7;
      const s = sq & 24;
      gl = FLIPPED[(c << 8) | (OUTFLANK[(c << 6) | ((ol >>> (s + 1)) & 63)] & (pl >>> s))] << s;
      let kl = DIAG_LO[sq];
      let kh = DIAG_HI[sq];
      let o = Math.imul((ol & kl) | (oh & kh), 0x01010101) >>> 24;
      let p = Math.imul((pl & kl) | (ph & kh), 0x01010101) >>> 24;
      let f = Math.imul(FLIPPED[(c << 8) | (OUTFLANK[(c << 6) | ((o >>> 1) & 63)] & p)], 0x01010101);
      gl |= f & kl;
      gh = f & kh;
      kl = ANTI_LO[sq];
      kh = ANTI_HI[sq];
      o = Math.imul((ol & kl) | (oh & kh), 0x01010101) >>> 24;
      p = Math.imul((pl & kl) | (ph & kh), 0x01010101) >>> 24;
      f = Math.imul(FLIPPED[(c << 8) | (OUTFLANK[(c << 6) | ((o >>> 1) & 63)] & p)], 0x01010101);
      gl |= f & kl;
      gh |= f & kh;
      let r = UP_LO[sq];
      let b = r & ~ol;
      b &= 0x80000000 >>> Math.clz32(b);
      gl |= r & -((b & pl) << 1);
      r = DOWN_LO[sq];
      b = r & ~ol;
      const zero = ((b - 1) & ~b) >> 31;
      b &= -b;
      gl |= r & (b - 1) & (-(b & pl) >> 31);
      const rh = DOWN_HI[sq];
      b = rh & ~oh & zero;
      b &= -b;
      const m = -(b & ph) >> 31;
      gl |= r & m;
      gh |= rh & (b - 1) & m;
      dl = pl | gl | bit;
      dh = ph | gh;
    } else {
      const sq = 63 - Math.clz32(mh);
      const bit = 1 << sq;
      mh ^= bit;
      const c = sq & 7;
      const s = sq & 24;
      gh = FLIPPED[(c << 8) | (OUTFLANK[(c << 6) | ((oh >>> (s + 1)) & 63)] & (ph >>> s))] << s;
      let kl = DIAG_LO[sq];
      let kh = DIAG_HI[sq];
      let o = Math.imul((ol & kl) | (oh & kh), 0x01010101) >>> 24;
      let p = Math.imul((pl & kl) | (ph & kh), 0x01010101) >>> 24;
      let f = Math.imul(FLIPPED[(c << 8) | (OUTFLANK[(c << 6) | ((o >>> 1) & 63)] & p)], 0x01010101);
      gl = f & kl;
      gh |= f & kh;
      kl = ANTI_LO[sq];
      kh = ANTI_HI[sq];
      o = Math.imul((ol & kl) | (oh & kh), 0x01010101) >>> 24;
      p = Math.imul((pl & kl) | (ph & kh), 0x01010101) >>> 24;
      f = Math.imul(FLIPPED[(c << 8) | (OUTFLANK[(c << 6) | ((o >>> 1) & 63)] & p)], 0x01010101);
      gl |= f & kl;
      gh |= f & kh;
      let r = DOWN_HI[sq];
      let b = r & ~oh;
      b &= -b;
      gh |= r & (b - 1) & (-(b & ph) >> 31);
      r = UP_HI[sq];
      b = r & ~oh;
      const zero = ((b - 1) & ~b) >> 31;
      b &= 0x80000000 >>> Math.clz32(b);
      gh |= r & -((b & ph) << 1);
      const rl = UP_LO[sq];
      b = rl & ~ol & zero;
      b &= 0x80000000 >>> Math.clz32(b);
      const m = -(b & pl) >> 31;
      gh |= r & m;
      gl |= rl & -(b << 1) & m;
      dl = pl | gl;
      dh = ph | gh | bit;
    }
    const cl = ol ^ gl;
    const ch = oh ^ gh;
    const il = dl & INNER;
    const ih = dh & INNER;
    let fl: number;
    let fh: number;
    let xl = (il + (il & (cl << 1))) | 0;
    let xh = (ih + (ih & (ch << 1))) | 0;
    fl = il & (cl >>> 1);
    fh = ih & (ch >>> 1);
    fl |= il & (fl >>> 1);
    fh |= ih & (fh >>> 1);
    const pairL = il & (il >>> 1);
    const pairH = ih & (ih >>> 1);
    fl |= pairL & (fl >>> 2);
    fh |= pairH & (fh >>> 2);
    fl |= pairL & (fl >>> 2);
    fh |= pairH & (fh >>> 2);
    xl |= fl >>> 1;
    xh |= fh >>> 1;
    fl = dl & (cl << 8);
    fl |= dl & (fl << 8);
    fl |= dl & (fl << 8);
    fh = dh & ((ch << 8) | ((cl | fl) >>> 24));
    fh |= dh & (fh << 8);
    fh |= dh & (fh << 8);
    xl |= fl << 8;
    xh |= (fh << 8) | (fl >>> 24);
    fh = dh & (ch >>> 8);
    fh |= dh & (fh >>> 8);
    fh |= dh & (fh >>> 8);
    fl = dl & ((cl >>> 8) | ((ch | fh) << 24));
    fl |= dl & (fl >>> 8);
    fl |= dl & (fl >>> 8);
    xh |= fh >>> 8;
    xl |= (fl >>> 8) | (fh << 24);
    fl = il & (cl << 9);
    fl |= il & (fl << 9);
    fl |= il & (fl << 9);
    fh = ih & ((ch << 9) | ((cl | fl) >>> 23));
    fh |= ih & (fh << 9);
    fh |= ih & (fh << 9);
    xl |= fl << 9;
    xh |= (fh << 9) | (fl >>> 23);
    fh = ih & (ch >>> 9);
    fh |= ih & (fh >>> 9);
    fh |= ih & (fh >>> 9);
    fl = il & ((cl >>> 9) | ((ch | fh) << 23));
    fl |= il & (fl >>> 9);
    fl |= il & (fl >>> 9);
    xh |= fh >>> 9;
    xl |= (fl >>> 9) | (fh << 23);
    fl = il & (cl << 7);
    fl |= il & (fl << 7);
    fl |= il & (fl << 7);
    fh = ih & ((ch << 7) | ((cl | fl) >>> 25));
    fh |= ih & (fh << 7);
    fh |= ih & (fh << 7);
    xl |= fl << 7;
    xh |= (fh << 7) | (fl >>> 25);
    fh = ih & (ch >>> 7);
    fh |= ih & (fh >>> 7);
    fh |= ih & (fh >>> 7);
    fl = il & ((cl >>> 7) | ((ch | fh) << 25));
    fl |= il & (fl >>> 7);
    fl |= il & (fl >>> 7);
    xh |= fh >>> 7;
    xl |= (fl >>> 7) | (fh << 25);
    xl &= ~(cl | dl);
    xh &= ~(ch | dh);
    if ((xl | xh) === 0) total += perftBits(cl, ch, dl, dh, below, finished);
    else if (below === 1) total += popcount2(xl, xh);
    else total += perftMoves(cl, ch, dl, dh, xl, xh, below, finished);
  }
  return total;
}

/*
 * Take the pass paths of perftMoves now, so that they have type feedback when V8 optimizes the loop:
 * otherwise the first pass deoptimizes it, and the calls that follow can keep entering through
 * on-stack replacement (seen 5x slower). V8 records feedback only from a function's 9th call on,
 * hence the repetitions. a1, h8 against b1, h7: c1 or h6 leaves the opponent without a move.
 */
for (let i = 0; i < 12; i++) perftBits(1, 1 << 31, 2, 1 << 23, 2 + (i % 3), 1);

/** popcount(l) + popcount(h), sharing the last steps (the per-byte sums of both fit in a byte). */
function popcount2(l: number, h: number): number {
  l = (l & 0x55555555) + ((l >>> 1) & 0x55555555);
  h = (h & 0x55555555) + ((h >>> 1) & 0x55555555);
  l = (l & 0x33333333) + ((l >>> 2) & 0x33333333) + (h & 0x33333333) + ((h >>> 2) & 0x33333333);
  l = (l & 0x0f0f0f0f) + ((l >>> 4) & 0x0f0f0f0f);
  return Math.imul(l, 0x01010101) >>> 24;
}
