/**
 * Pattern instances of the evaluation, read straight from the bitboards.
 *
 * A pattern is an ordered list of squares; its configuration index is sum(3^i * cell_i) with cell
 * 0 empty, 1 own (side to move), 2 opponent. Each pattern has instances that are images of one
 * another under the board's symmetries, read in the image order, so all instances share one table.
 *
 *   edgeX  row 1, row 8, column a, column h, each with its two X squares (b2 g2 for row 1)
 *                                                     (10 squares, 4 instances)
 *   line2  row 2, row 7, column b, column g          (8 squares, 4 instances)
 *   line3  row 3, row 6, column c, column f          (8 squares, 4 instances)
 *   line4  row 4, row 5, column d, column e          (8 squares, 4 instances)
 *   diag8  a1-h8, h1-a8                               (8 squares, 2 instances)
 *   corner 3x3 block at each corner, row by row from the corner (9 squares, 4 instances)
 *   diag7 / diag6 / diag5 / diag4: the shorter diagonals (4 instances each)
 *   corner2x5  the 2x5 block along an edge from each corner, both ways: a1-e1 then a2-e2, and its
 *          images (10 squares, 8 instances)
 *
 * Reading order: rows by column (a..h), columns by row (1..8), diagonals of the a1-h8 direction
 * by column, those of the a8-h1 direction by decreasing column (so mirror images line up); the X
 * squares of an edge follow its eight squares, the one nearer its first square first; a 2x5 block
 * reads its edge row from the corner, then the row next to it.
 */
import { TERNARY, columnBits } from './edges.js';

export const PATTERN_EDGE = 0;
export const PATTERN_LINE2 = 1;
export const PATTERN_LINE3 = 2;
export const PATTERN_LINE4 = 3;
export const PATTERN_DIAG8 = 4;
export const PATTERN_CORNER = 5;
export const PATTERN_DIAG7 = 6;
export const PATTERN_DIAG6 = 7;
export const PATTERN_DIAG5 = 8;
export const PATTERN_DIAG4 = 9;
export const PATTERN_CORNER25 = 10;

/** Squares per pattern, in the order of the constants above. */
export const PATTERN_LENGTHS: readonly number[] = [10, 8, 8, 8, 8, 9, 7, 6, 5, 4, 10];
export const PATTERN_SIZES: readonly number[] = PATTERN_LENGTHS.map((n) => 3 ** n);
/** Offset of each pattern's table inside one phase's weight block. */
export const PATTERN_OFFSETS: readonly number[] = PATTERN_SIZES.map((_, i) =>
  PATTERN_SIZES.slice(0, i).reduce((a, b) => a + b, 0),
);
/** Weights per phase for all pattern tables together. */
export const PATTERN_BLOCK = PATTERN_SIZES.reduce((a, b) => a + b, 0);
/** Pattern instances evaluated per position. */
export const INSTANCE_COUNT = 4 * 4 + 2 + 4 + 4 * 4 + 8;
/** Which pattern each instance slot belongs to (slot order of `patternIndices`). */
export const INSTANCE_PATTERN: readonly number[] = [
  ...[0, 0, 0, 0],
  ...[1, 1, 1, 1],
  ...[2, 2, 2, 2],
  ...[3, 3, 3, 3],
  ...[4, 4],
  ...[5, 5, 5, 5],
  ...[6, 6, 6, 6],
  ...[7, 7, 7, 7],
  ...[8, 8, 8, 8],
  ...[9, 9, 9, 9],
  ...[10, 10, 10, 10, 10, 10, 10, 10],
];

/**
 * Base-3 value of each mask's low `bits` bits read as digits: bit i -> 3^i, or with `reversed`
 * bit bits-1-i -> 3^i.
 */
function ternaryTable(bits: number, reversed: boolean): Int32Array {
  const table = new Int32Array(1 << bits);
  for (let m = 0; m < 1 << bits; m++) {
    let t = 0;
    for (let i = 0; i < bits; i++) t = t * 3 + ((m >> (reversed ? i : bits - 1 - i)) & 1);
    table[m] = t;
  }
  return table;
}
/** Forward base-3 values of up to 10 bits (a 9-bit mask reads the same in its first 512 entries). */
const TERNARY10 = ternaryTable(10, false);
/** Reversed base-3 values, per length 0..8. */
const TERNARY_REVERSED: Int32Array[] = Array.from({ length: 9 }, (_, k) => ternaryTable(k, true));
const REVERSE3 = new Int32Array([0, 4, 2, 6, 1, 5, 3, 7]);
/** The low 5 bits reversed (bit 4 -> bit 0). */
const REVERSE5 = new Int32Array(32);
for (let m = 0; m < 32; m++) for (let i = 0; i < 5; i++) if ((m >> i) & 1) REVERSE5[m] |= 1 << (4 - i);
const POW8 = 3 ** 8;
const POW9 = 3 ** 9;

/** One diagonal as 8 bits indexed by column (bit c = the diagonal's square in column c). */
function gatherDiagonal(lo: number, hi: number, maskLo: number, maskHi: number): number {
  return (Math.imul(lo & maskLo, 0x01010101) >>> 24) | (Math.imul(hi & maskHi, 0x01010101) >>> 24);
}

interface Diagonal {
  readonly maskLo: number;
  readonly maskHi: number;
  /** Lowest column on the diagonal and its length. */
  readonly firstColumn: number;
  readonly length: number;
  /** True for the a8-h1 direction (read by decreasing column). */
  readonly anti: boolean;
  readonly pattern: number;
}

function diagonal(squares: readonly [number, number][], anti: boolean, pattern: number): Diagonal {
  let maskLo = 0;
  let maskHi = 0;
  let firstColumn = 8;
  for (const [row, col] of squares) {
    const sq = row * 8 + col;
    if (sq < 32) maskLo |= 1 << sq;
    else maskHi |= 1 << (sq - 32);
    firstColumn = Math.min(firstColumn, col);
  }
  return { maskLo, maskHi, firstColumn, length: squares.length, anti, pattern };
}

/** Squares (row, col) with col - row = k (a1-h8 direction) or col + row = k (a8-h1 direction). */
function diagonalSquares(k: number, anti: boolean): [number, number][] {
  const out: [number, number][] = [];
  for (let row = 0; row < 8; row++) {
    const col = anti ? k - row : row + k;
    if (col >= 0 && col < 8) out.push([row, col]);
  }
  return out;
}

/** The 18 diagonal instances, in slot order: diag8 x2, then diag7..diag4 x4. */
const DIAGONALS: Diagonal[] = [diagonal(diagonalSquares(0, false), false, PATTERN_DIAG8), diagonal(diagonalSquares(7, true), true, PATTERN_DIAG8)];
for (let len = 7; len >= 4; len--) {
  const pattern = PATTERN_DIAG7 + (7 - len);
  const off = 8 - len;
  DIAGONALS.push(diagonal(diagonalSquares(off, false), false, pattern));
  DIAGONALS.push(diagonal(diagonalSquares(-off, false), false, pattern));
  DIAGONALS.push(diagonal(diagonalSquares(7 - off, true), true, pattern));
  DIAGONALS.push(diagonal(diagonalSquares(7 + off, true), true, pattern));
}
const DIAG_MASK_LO = new Int32Array(DIAGONALS.map((d) => d.maskLo));
const DIAG_MASK_HI = new Int32Array(DIAGONALS.map((d) => d.maskHi));
const DIAG_SHIFT = new Int32Array(DIAGONALS.map((d) => d.firstColumn));
const DIAG_BITS = new Int32Array(DIAGONALS.map((d) => (1 << d.length) - 1));
const DIAG_LENGTH = new Int32Array(DIAGONALS.map((d) => d.length));
const DIAG_ANTI = new Uint8Array(DIAGONALS.map((d) => (d.anti ? 1 : 0)));
/** Forward-read ternary tables by length (bit i -> 3^i), lengths 4..8. */
const TERNARY_FORWARD: Int32Array[] = [];
for (let k = 0; k <= 8; k++) {
  const table = new Int32Array(1 << k);
  for (let m = 0; m < 1 << k; m++) table[m] = TERNARY[m];
  TERNARY_FORWARD.push(table);
}

function lineIndex(p: number, o: number): number {
  return TERNARY[p] + 2 * TERNARY[o];
}

function cornerIndex(p: number, o: number): number {
  return TERNARY10[p] + 2 * TERNARY10[o];
}

/** An edge's index with its two X squares as digits 8 and 9 (each 0 or 1 per side). */
function edgeXIndex(p: number, o: number, px1: number, ox1: number, px2: number, ox2: number): number {
  return TERNARY[p] + 2 * TERNARY[o] + POW8 * (px1 + 2 * ox1) + POW9 * (px2 + 2 * ox2);
}

/** A 2x5 block from two 5-bit rows (edge row first). */
function block25Index(p1: number, p2: number, o1: number, o2: number): number {
  return TERNARY10[p1 | (p2 << 5)] + 2 * TERNARY10[o1 | (o2 << 5)];
}

/**
 * Configuration index (within its pattern's table) of every instance, in INSTANCE_PATTERN slot
 * order, for the side to move (pl, ph) against (ol, oh).
 */
export function patternIndices(pl: number, ph: number, ol: number, oh: number, out: Int32Array): void {
  // Rows (edge with X squares, line2, line3, line4 pairs) and columns.
  // X squares: b2 = lo bit 9, g2 = lo bit 14, b7 = hi bit 17, g7 = hi bit 22.
  const pb2 = (pl >>> 9) & 1;
  const ob2 = (ol >>> 9) & 1;
  const pg2 = (pl >>> 14) & 1;
  const og2 = (ol >>> 14) & 1;
  const pb7 = (ph >>> 17) & 1;
  const ob7 = (oh >>> 17) & 1;
  const pg7 = (ph >>> 22) & 1;
  const og7 = (oh >>> 22) & 1;
  const pRow1 = pl & 0xff;
  const oRow1 = ol & 0xff;
  const pRow2 = (pl >>> 8) & 0xff;
  const oRow2 = (ol >>> 8) & 0xff;
  const pRow8 = ph >>> 24;
  const oRow8 = oh >>> 24;
  const pRow7 = (ph >>> 16) & 0xff;
  const oRow7 = (oh >>> 16) & 0xff;
  const pColA = columnBits(pl, ph, 0);
  const oColA = columnBits(ol, oh, 0);
  const pColB = columnBits(pl, ph, 1);
  const oColB = columnBits(ol, oh, 1);
  const pColG = columnBits(pl, ph, 6);
  const oColG = columnBits(ol, oh, 6);
  const pColH = columnBits(pl, ph, 7);
  const oColH = columnBits(ol, oh, 7);
  out[0] = edgeXIndex(pRow1, oRow1, pb2, ob2, pg2, og2);
  out[1] = edgeXIndex(pRow8, oRow8, pb7, ob7, pg7, og7);
  out[2] = edgeXIndex(pColA, oColA, pb2, ob2, pb7, ob7);
  out[3] = edgeXIndex(pColH, oColH, pg2, og2, pg7, og7);
  out[4] = lineIndex(pRow2, oRow2);
  out[5] = lineIndex(pRow7, oRow7);
  out[6] = lineIndex(pColB, oColB);
  out[7] = lineIndex(pColG, oColG);
  out[8] = lineIndex((pl >>> 16) & 0xff, (ol >>> 16) & 0xff);
  out[9] = lineIndex((ph >>> 8) & 0xff, (oh >>> 8) & 0xff);
  out[10] = lineIndex(columnBits(pl, ph, 2), columnBits(ol, oh, 2));
  out[11] = lineIndex(columnBits(pl, ph, 5), columnBits(ol, oh, 5));
  out[12] = lineIndex(pl >>> 24, ol >>> 24);
  out[13] = lineIndex(ph & 0xff, oh & 0xff);
  out[14] = lineIndex(columnBits(pl, ph, 3), columnBits(ol, oh, 3));
  out[15] = lineIndex(columnBits(pl, ph, 4), columnBits(ol, oh, 4));

  // Diagonals: slots 16-17 (diag8), then 22.. (diag7..diag4); corners take slots 18-21.
  for (let d = 0; d < DIAGONALS.length; d++) {
    const shift = DIAG_SHIFT[d];
    const bits = DIAG_BITS[d];
    const p = (gatherDiagonal(pl, ph, DIAG_MASK_LO[d], DIAG_MASK_HI[d]) >>> shift) & bits;
    const o = (gatherDiagonal(ol, oh, DIAG_MASK_LO[d], DIAG_MASK_HI[d]) >>> shift) & bits;
    const table = DIAG_ANTI[d] === 1 ? TERNARY_REVERSED[DIAG_LENGTH[d]] : TERNARY_FORWARD[DIAG_LENGTH[d]];
    out[d < 2 ? 16 + d : 20 + d] = table[p] + 2 * table[o];
  }

  // Corner 3x3 blocks, rows from the corner outwards, squares from the corner's column.
  out[18] = cornerIndex(
    (pl & 7) | ((pl >>> 5) & 0x38) | ((pl >>> 10) & 0x1c0),
    (ol & 7) | ((ol >>> 5) & 0x38) | ((ol >>> 10) & 0x1c0),
  );
  out[19] = cornerIndex(
    REVERSE3[(pl >>> 5) & 7] | (REVERSE3[(pl >>> 13) & 7] << 3) | (REVERSE3[(pl >>> 21) & 7] << 6),
    REVERSE3[(ol >>> 5) & 7] | (REVERSE3[(ol >>> 13) & 7] << 3) | (REVERSE3[(ol >>> 21) & 7] << 6),
  );
  out[20] = cornerIndex(
    ((ph >>> 24) & 7) | ((ph >>> 13) & 0x38) | ((ph >>> 2) & 0x1c0),
    ((oh >>> 24) & 7) | ((oh >>> 13) & 0x38) | ((oh >>> 2) & 0x1c0),
  );
  out[21] = cornerIndex(
    REVERSE3[(ph >>> 29) & 7] | (REVERSE3[(ph >>> 21) & 7] << 3) | (REVERSE3[(ph >>> 13) & 7] << 6),
    REVERSE3[(oh >>> 29) & 7] | (REVERSE3[(oh >>> 21) & 7] << 3) | (REVERSE3[(oh >>> 13) & 7] << 6),
  );

  // 2x5 blocks: a1 along row 1, a1 down column a, h1 along row 1, h1 down column h, then the same at a8 and h8.
  out[38] = block25Index(pRow1 & 31, pRow2 & 31, oRow1 & 31, oRow2 & 31);
  out[39] = block25Index(pColA & 31, pColB & 31, oColA & 31, oColB & 31);
  out[40] = block25Index(REVERSE5[pRow1 >>> 3], REVERSE5[pRow2 >>> 3], REVERSE5[oRow1 >>> 3], REVERSE5[oRow2 >>> 3]);
  out[41] = block25Index(pColH & 31, pColG & 31, oColH & 31, oColG & 31);
  out[42] = block25Index(pRow8 & 31, pRow7 & 31, oRow8 & 31, oRow7 & 31);
  out[43] = block25Index(REVERSE5[pColA >>> 3], REVERSE5[pColB >>> 3], REVERSE5[oColA >>> 3], REVERSE5[oColB >>> 3]);
  out[44] = block25Index(REVERSE5[pRow8 >>> 3], REVERSE5[pRow7 >>> 3], REVERSE5[oRow8 >>> 3], REVERSE5[oRow7 >>> 3]);
  out[45] = block25Index(REVERSE5[pColH >>> 3], REVERSE5[pColG >>> 3], REVERSE5[oColH >>> 3], REVERSE5[oColG >>> 3]);
}

/** Digit order of a configuration's mirror image, per pattern (see partnerTable). */
function mirrorOrder(pattern: number, length: number): number[] {
  if (pattern === PATTERN_CORNER) return [0, 3, 6, 1, 4, 7, 2, 5, 8];
  if (pattern === PATTERN_EDGE) return [7, 6, 5, 4, 3, 2, 1, 0, 9, 8];
  if (pattern === PATTERN_CORNER25) return Array.from({ length }, (_, i) => i);
  return Array.from({ length }, (_, i) => length - 1 - i);
}

/**
 * The tied partner of every configuration of a pattern: its reverse for the lines and diagonals
 * (each is mapped onto itself, reversed, by a board symmetry; an edge's X squares swap too), its
 * transpose for the corner block, itself for the 2x5 block (no symmetry maps it onto itself).
 */
export function partnerTable(pattern: number): Int32Array {
  const length = PATTERN_LENGTHS[pattern];
  const size = 3 ** length;
  const order = mirrorOrder(pattern, length);
  const out = new Int32Array(size);
  const digits = new Int32Array(length);
  for (let index = 0; index < size; index++) {
    let x = index;
    for (let i = 0; i < length; i++) {
      digits[i] = x % 3;
      x = (x / 3) | 0;
    }
    let partner = 0;
    for (let i = length - 1; i >= 0; i--) partner = partner * 3 + digits[order[i]];
    out[index] = partner;
  }
  return out;
}

/**
 * Incremental indices (as Edax keeps them): each instance's index is linear in the board, sum over
 * its squares of 3^k * cell, so a disc placed or flipped on a square changes the index of every
 * instance through that square by a fixed multiple of that square's digit weight. Per square, the
 * instances through it and its digit weight there (read off patternIndices itself, so the two can
 * never disagree): slots SQUARE_SLOTS[SQUARE_SLOT_START[sq] .. SQUARE_SLOT_START[sq + 1]), weights
 * in SQUARE_DIGITS at the same places.
 */
export const SQUARE_SLOT_START = new Int32Array(65);
const slotList: number[] = [];
const digitList: number[] = [];
{
  const probe = new Int32Array(INSTANCE_COUNT);
  for (let sq = 0; sq < 64; sq++) {
    SQUARE_SLOT_START[sq] = slotList.length;
    patternIndices(sq < 32 ? 1 << sq : 0, sq < 32 ? 0 : 1 << (sq - 32), 0, 0, probe);
    for (let slot = 0; slot < INSTANCE_COUNT; slot++) {
      if (probe[slot] === 0) continue;
      slotList.push(slot);
      digitList.push(probe[slot]);
    }
  }
  SQUARE_SLOT_START[64] = slotList.length;
}
export const SQUARE_SLOTS = new Int32Array(slotList);
export const SQUARE_DIGITS = new Int32Array(digitList);
/**
 * The word the position keeps per instance: Black's view of its index (black digit 1, white 2: the index
 * when Black is to move) in the low 16 bits, and the occupancy index (digit 1 on every occupied square) in
 * the high 16 bits. White's view, the same configuration with digits 1 and 2 swapped, is then
 * 3 * occupancy - black (a digit d != 0 becomes 3 - d), so one word serves both sides; and a flip changes
 * only the low half, a placed disc both.
 */
export const INDEX_BITS = 16;
export const INDEX_MASK = (1 << INDEX_BITS) - 1;

/** The packed words of every instance (see INDEX_BITS) into `out[at ..]`. */
export function packedIndices(blackLo: number, blackHi: number, whiteLo: number, whiteHi: number, out: Int32Array, at: number): void {
  const black = scratch;
  const occupied = scratchOccupied;
  patternIndices(blackLo, blackHi, whiteLo, whiteHi, black);
  patternIndices(blackLo | whiteLo, blackHi | whiteHi, 0, 0, occupied);
  for (let i = 0; i < INSTANCE_COUNT; i++) out[at + i] = black[i] | (occupied[i] << INDEX_BITS);
}
const scratch = new Int32Array(INSTANCE_COUNT);
const scratchOccupied = new Int32Array(INSTANCE_COUNT);
