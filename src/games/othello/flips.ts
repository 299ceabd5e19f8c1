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
  // The eight rays unrolled (a loop over them measured slower in V8).
  let fl = 0;
  let fh = 0;
  let rl: number;
  let rh: number;
  let bl: number;
  let bh: number;
  let b: number;
  rl = RAY_LO[sq + 0];
  bl = rl & ~ol;
  if (bl !== 0) {
    b = bl & -bl;
    if ((b & pl) !== 0) fl |= rl & (b - 1);
  } else {
    rh = RAY_HI[sq + 0];
    bh = rh & ~oh;
    if (bh !== 0) {
      b = bh & -bh;
      if ((b & ph) !== 0) {
        fl |= rl;
        fh |= rh & (b - 1);
      }
    }
  }
  rl = RAY_LO[sq + 64];
  bl = rl & ~ol;
  if (bl !== 0) {
    b = bl & -bl;
    if ((b & pl) !== 0) fl |= rl & (b - 1);
  } else {
    rh = RAY_HI[sq + 64];
    bh = rh & ~oh;
    if (bh !== 0) {
      b = bh & -bh;
      if ((b & ph) !== 0) {
        fl |= rl;
        fh |= rh & (b - 1);
      }
    }
  }
  rl = RAY_LO[sq + 128];
  bl = rl & ~ol;
  if (bl !== 0) {
    b = bl & -bl;
    if ((b & pl) !== 0) fl |= rl & (b - 1);
  } else {
    rh = RAY_HI[sq + 128];
    bh = rh & ~oh;
    if (bh !== 0) {
      b = bh & -bh;
      if ((b & ph) !== 0) {
        fl |= rl;
        fh |= rh & (b - 1);
      }
    }
  }
  rl = RAY_LO[sq + 192];
  bl = rl & ~ol;
  if (bl !== 0) {
    b = bl & -bl;
    if ((b & pl) !== 0) fl |= rl & (b - 1);
  } else {
    rh = RAY_HI[sq + 192];
    bh = rh & ~oh;
    if (bh !== 0) {
      b = bh & -bh;
      if ((b & ph) !== 0) {
        fl |= rl;
        fh |= rh & (b - 1);
      }
    }
  }
  rh = RAY_HI[sq + 256];
  bh = rh & ~oh;
  if (bh !== 0) {
    b = 1 << (31 - Math.clz32(bh));
    if ((b & ph) !== 0) fh |= rh & ~((b << 1) - 1);
  } else {
    rl = RAY_LO[sq + 256];
    bl = rl & ~ol;
    if (bl !== 0) {
      b = 1 << (31 - Math.clz32(bl));
      if ((b & pl) !== 0) {
        fh |= rh;
        fl |= rl & ~((b << 1) - 1);
      }
    }
  }
  rh = RAY_HI[sq + 320];
  bh = rh & ~oh;
  if (bh !== 0) {
    b = 1 << (31 - Math.clz32(bh));
    if ((b & ph) !== 0) fh |= rh & ~((b << 1) - 1);
  } else {
    rl = RAY_LO[sq + 320];
    bl = rl & ~ol;
    if (bl !== 0) {
      b = 1 << (31 - Math.clz32(bl));
      if ((b & pl) !== 0) {
        fh |= rh;
        fl |= rl & ~((b << 1) - 1);
      }
    }
  }
  rh = RAY_HI[sq + 384];
  bh = rh & ~oh;
  if (bh !== 0) {
    b = 1 << (31 - Math.clz32(bh));
    if ((b & ph) !== 0) fh |= rh & ~((b << 1) - 1);
  } else {
    rl = RAY_LO[sq + 384];
    bl = rl & ~ol;
    if (bl !== 0) {
      b = 1 << (31 - Math.clz32(bl));
      if ((b & pl) !== 0) {
        fh |= rh;
        fl |= rl & ~((b << 1) - 1);
      }
    }
  }
  rh = RAY_HI[sq + 448];
  bh = rh & ~oh;
  if (bh !== 0) {
    b = 1 << (31 - Math.clz32(bh));
    if ((b & ph) !== 0) fh |= rh & ~((b << 1) - 1);
  } else {
    rl = RAY_LO[sq + 448];
    bl = rl & ~ol;
    if (bl !== 0) {
      b = 1 << (31 - Math.clz32(bl));
      if ((b & pl) !== 0) {
        fh |= rh;
        fl |= rl & ~((b << 1) - 1);
      }
    }
  }
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
