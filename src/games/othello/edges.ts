/**
 * The four edges as 8-cell lines: extraction from the bitboards into a base-3 index (0 empty,
 * 1 own, 2 opponent; cell 0 = the low-index end), and the table of discs that no sequence of moves
 * along the edge can ever flip (edge-anchored stable discs).
 */

/** 3^8 edge configurations. */
export const EDGE_CONFIGS = 6561;

/** Base-3 value of an 8-bit mask read as digits 1 (so own = T[p], opponent = 2 * T[o]). */
export const TERNARY = new Int32Array(256);
for (let m = 0; m < 256; m++) {
  let t = 0;
  for (let i = 7; i >= 0; i--) t = t * 3 + ((m >> i) & 1);
  TERNARY[m] = t;
}

/** Column a (shift = 0) or h (shift = 7) of a 64-bit set as 8 bits, row 1 in bit 0. */
export function columnBits(lo: number, hi: number, shift: number): number {
  const a = Math.imul((lo >>> shift) & 0x01010101, 0x01020408) >>> 24;
  const b = Math.imul((hi >>> shift) & 0x01010101, 0x01020408) >>> 24;
  return (a & 15) | ((b & 15) << 4);
}

/** Scatter of 8 edge bits back onto column a (shift it left by 7 for column h). */
export const COLUMN_LO = new Int32Array(256);
export const COLUMN_HI = new Int32Array(256);
for (let m = 0; m < 256; m++) {
  for (let i = 0; i < 8; i++) {
    if (((m >> i) & 1) === 0) continue;
    if (i < 4) COLUMN_LO[m] |= 1 << (i * 8);
    else COLUMN_HI[m] |= 1 << ((i - 4) * 8);
  }
}

/**
 * Stable cells of each edge configuration, as an 8-bit mask: a disc is stable when it keeps its
 * colour in every configuration reachable by discs of either colour placed on empty cells of the
 * line (with the line's own flips). The real game can only reach a subset of those, so this is a
 * safe under-estimate.
 */
export const EDGE_STABLE = new Uint8Array(EDGE_CONFIGS);

function digitsOf(index: number, out: Int8Array): void {
  for (let i = 0; i < 8; i++) {
    out[i] = index % 3;
    index = (index / 3) | 0;
  }
}

function indexOf(cells: Int8Array): number {
  let t = 0;
  for (let i = 7; i >= 0; i--) t = t * 3 + cells[i];
  return t;
}

/** Places `colour` at `at` on the line and flips bracketed discs (no legality requirement). */
function placeOnLine(cells: Int8Array, at: number, colour: number): void {
  const other = 3 - colour;
  cells[at] = colour;
  for (const step of [-1, 1]) {
    let i = at + step;
    while (i >= 0 && i < 8 && cells[i] === other) i += step;
    if (i >= 0 && i < 8 && cells[i] === colour) {
      for (let j = at + step; j !== i; j += step) cells[j] = colour;
    }
  }
}

{
  // Configurations with more discs first: each one's children (one more disc) are already known.
  const order = Array.from({ length: EDGE_CONFIGS }, (_, i) => i);
  const discCount = (i: number): number => {
    let n = 0;
    for (let k = 0; k < 8; k++, i = (i / 3) | 0) if (i % 3 !== 0) n++;
    return n;
  };
  order.sort((a, b) => discCount(b) - discCount(a));
  const cells = new Int8Array(8);
  const child = new Int8Array(8);
  for (const index of order) {
    digitsOf(index, cells);
    let stable = 0;
    for (let i = 0; i < 8; i++) if (cells[i] !== 0) stable |= 1 << i;
    for (let at = 0; at < 8 && stable !== 0; at++) {
      if (cells[at] !== 0) continue;
      for (let colour = 1; colour <= 2; colour++) {
        child.set(cells);
        placeOnLine(child, at, colour);
        const childStable = EDGE_STABLE[indexOf(child)];
        for (let i = 0; i < 8; i++) {
          if (((stable >> i) & 1) === 0) continue;
          if (child[i] !== cells[i] || ((childStable >> i) & 1) === 0) stable &= ~(1 << i);
        }
      }
    }
    EDGE_STABLE[index] = stable;
  }
}
