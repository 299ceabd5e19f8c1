/**
 * AssemblyScript kernel of the endgame solver's last plies (compiled to WebAssembly by `npm run build`,
 * scripts/build-wasm: dist/src/games/othello/endgame.wasm; loaded by ../kernel.ts). WebAssembly has the
 * 64-bit integers and popcount JavaScript lacks, so a board is two u64 here.
 *
 * It is solver.ts's search move for move up to MID_EMPTIES empties: its deep nodes (fastest-first
 * order, the solver's transposition table, which lives in this memory so both paths share it, enhanced
 * transposition cutoffs, stability cutoffs, principal-variation search) and below them its shallow
 * search (SHALLOW_EMPTIES empties and fewer): the same list order (the solver's square priority, empty
 * squares only), the same parity order, the same stability cutoff, the same node count. Tests compare
 * scores and node counts with the TypeScript path.
 * Not tsc input (tsconfig excludes this folder): `i32`, `u64`, `unchecked`, `popcnt` are AssemblyScript's.
 */

const SCORE_MAX: i32 = 64;
const NO_SCORE: i32 = -SCORE_MAX - 1;
const NOT_A: u64 = 0xfefefefefefefefe;
const NOT_H: u64 = 0x7f7f7f7f7f7f7f7f;

import { bit, board, flips, lastFlipCount, mobility } from './bitboard';

/** Tables filled by the host from edges.ts (addresses exported below), so both paths share one source. */
const EDGE_STABLE = new StaticArray<u8>(6561);
const TERNARY = new StaticArray<i32>(256);
const COLUMN_LO = new StaticArray<i32>(256);
const COLUMN_HI = new StaticArray<i32>(256);
/** Computed here. */
const ADJACENT = new StaticArray<u64>(64);
const QUADRANT = new StaticArray<i32>(64);
const STABILITY_THRESHOLD = new StaticArray<i32>(65);
/** The empties at the kernel's root in the solver's list order; a node skips those no longer empty. */
const ORDER = new StaticArray<i32>(16);
let orderCount: i32 = 0;
let nodes: i32 = 0;

for (let sq = 0; sq < 64; sq++) {
  const row = sq >> 3;
  const col = sq & 7;
  let adjacent: u64 = 0;
  for (let dr = -1; dr <= 1; dr++) {
    for (let dc = -1; dc <= 1; dc++) {
      const r = row + dr;
      const c = col + dc;
      if ((dr != 0 || dc != 0) && r >= 0 && r < 8 && c >= 0 && c < 8) adjacent |= (<u64>1) << (<u64>(r * 8 + c));
    }
  }
  ADJACENT[sq] = adjacent;
  QUADRANT[sq] = 1 << (((sq >> 5) << 1) | ((sq & 7) >> 2));
}
for (let e = 0; e <= 64; e++) STABILITY_THRESHOLD[e] = e < 4 ? 99 : e <= 9 ? 2 * e - 2 : min(64, 20 + 2 * (e - 10));

export function edgeStableAddress(): usize {
  return changetype<usize>(EDGE_STABLE);
}
export function ternaryAddress(): usize {
  return changetype<usize>(TERNARY);
}
export function columnLoAddress(): usize {
  return changetype<usize>(COLUMN_LO);
}
export function columnHiAddress(): usize {
  return changetype<usize>(COLUMN_HI);
}

/** Nodes counted since the last call (the host adds them to its own count). */
export function takeNodes(): i32 {
  const n = nodes;
  nodes = 0;
  return n;
}

/** Exported for the tests: flips as two halves (low returned, high through flipsHigh). */
let lastFlipsHigh: i32 = 0;
export function flipsOf(sq: i32, pl: i32, ph: i32, ol: i32, oh: i32): i32 {
  const f = flips(sq, board(pl, ph), board(ol, oh));
  lastFlipsHigh = <i32>(f >> 32);
  return <i32>f;
}
export function flipsHigh(): i32 {
  return lastFlipsHigh;
}

// @ts-ignore: decorator
@inline
function columnBits(lo: i32, hi: i32, shift: i32): i32 {
  const a = <i32>(<u32>(((lo >>> shift) & 0x01010101) * 0x01020408) >> 24);
  const b = <i32>(<u32>(((hi >>> shift) & 0x01010101) * 0x01020408) >> 24);
  return (a & 15) | ((b & 15) << 4);
}

let stableHigh: i32 = 0;

/** stability.ts's stableDiscs, line for line on int32 halves (low half returned, high in stableHigh). */
function stableDiscs(pl: i32, ph: i32, ol: i32, oh: i32): i32 {
  const NA: i32 = <i32>0xfefefefe;
  const NH: i32 = 0x7f7f7f7f;
  const NAB: i32 = <i32>0xfcfcfcfc;
  const NGH: i32 = 0x3f3f3f3f;
  const NABCD: i32 = <i32>0xf0f0f0f0;
  const NEFGH: i32 = 0x0f0f0f0f;
  const COL_AH: i32 = <i32>0x81818181;
  const ROW1: i32 = 0x000000ff;
  const ROW8: i32 = <i32>0xff000000;
  const EDGE_LO: i32 = <i32>0x818181ff;
  const EDGE_HI: i32 = <i32>0xff818181;
  const fl = pl | ol;
  const fh = ph | oh;
  const sA = <i32>unchecked(EDGE_STABLE[unchecked(TERNARY[columnBits(pl, ph, 0)]) + 2 * unchecked(TERNARY[columnBits(ol, oh, 0)])]);
  const sH = <i32>unchecked(EDGE_STABLE[unchecked(TERNARY[columnBits(pl, ph, 7)]) + 2 * unchecked(TERNARY[columnBits(ol, oh, 7)])]);
  let sl =
    (<i32>unchecked(EDGE_STABLE[unchecked(TERNARY[pl & 0xff]) + 2 * unchecked(TERNARY[ol & 0xff])]) |
      unchecked(COLUMN_LO[sA]) |
      (unchecked(COLUMN_LO[sH]) << 7)) &
    pl;
  let sh =
    ((<i32>unchecked(EDGE_STABLE[unchecked(TERNARY[ph >>> 24]) + 2 * unchecked(TERNARY[oh >>> 24])]) << 24) |
      unchecked(COLUMN_HI[sA]) |
      (unchecked(COLUMN_HI[sH]) << 7)) &
    ph;
  let t = fl & (fl >>> 4);
  t &= t >>> 2;
  t &= t >>> 1;
  const hl = COL_AH | ((t & 0x01010101) * 0xff);
  t = fh & (fh >>> 4);
  t &= t >>> 2;
  t &= t >>> 1;
  const hh = COL_AH | ((t & 0x01010101) * 0xff);
  const col = fl & (fl >>> 8) & (fl >>> 16) & (fl >>> 24) & fh & (fh >>> 8) & (fh >>> 16) & (fh >>> 24) & 0xff;
  const vl = (col * 0x01010101) | ROW1;
  const vh = (col * 0x01010101) | ROW8;
  let el = ~fl;
  let eh = ~fh;
  let nl = el | ((el << 9) & NA) | (((el >>> 9) | (eh << 23)) & NH);
  let nh = eh | (((eh << 9) | (el >>> 23)) & NA) | ((eh >>> 9) & NH);
  el = nl | ((nl << 18) & NAB) | (((nl >>> 18) | (nh << 14)) & NGH);
  eh = nh | (((nh << 18) | (nl >>> 14)) & NAB) | ((nh >>> 18) & NGH);
  const dl = EDGE_LO | ~(el | ((eh >>> 4) & NEFGH));
  const dh = EDGE_HI | ~(eh | ((el << 4) & NABCD));
  el = ~fl;
  eh = ~fh;
  nl = el | ((el << 7) & NH) | (((el >>> 7) | (eh << 25)) & NA);
  nh = eh | (((eh << 7) | (el >>> 25)) & NH) | ((eh >>> 7) & NA);
  el = nl | ((nl << 14) & NGH) | (((nl >>> 14) | (nh << 18)) & NAB);
  eh = nh | (((nh << 14) | (nl >>> 18)) & NGH) | ((nh >>> 14) & NAB);
  const al = EDGE_LO | ~(el | ((el << 28) & NEFGH) | (((el >>> 28) | (eh << 4)) & NABCD));
  const ah = EDGE_HI | ~(eh | (((eh << 28) | (el >>> 4)) & NEFGH) | ((eh >>> 28) & NABCD));
  for (;;) {
    const eastWestL = hl | ((sl << 1) & NA) | ((sl >>> 1) & NH);
    const eastWestH = hh | ((sh << 1) & NA) | ((sh >>> 1) & NH);
    const northSouthL = vl | (sl << 8) | (sl >>> 8) | (sh << 24);
    const northSouthH = vh | (sh << 8) | (sh >>> 8) | (sl >>> 24);
    const diag9L = dl | ((sl << 9) & NA) | (((sl >>> 9) | (sh << 23)) & NH);
    const diag9H = dh | (((sh << 9) | (sl >>> 23)) & NA) | ((sh >>> 9) & NH);
    const diag7L = al | ((sl << 7) & NH) | (((sl >>> 7) | (sh << 25)) & NA);
    const diag7H = ah | (((sh << 7) | (sl >>> 25)) & NH) | ((sh >>> 7) & NA);
    const nsl = sl | (pl & eastWestL & northSouthL & diag9L & diag7L);
    const nsh = sh | (ph & eastWestH & northSouthH & diag9H & diag7H);
    if (nsl == sl && nsh == sh) break;
    sl = nsl;
    sh = nsh;
  }
  stableHigh = sh;
  return sl;
}

/** Exported for the tests: stable discs as two halves (low returned, high through stableHighHalf). */
export function stableOf(pl: i32, ph: i32, ol: i32, oh: i32): i32 {
  return stableDiscs(pl, ph, ol, oh);
}
export function stableHighHalf(): i32 {
  return stableHigh;
}

/** Stable discs of o (against p): the cap on p's final score is 64 - 2 * that. */
// @ts-ignore: decorator
@inline
function opponentStableCount(p: u64, o: u64): i32 {
  const lo = stableDiscs(<i32>o, <i32>(o >> 32), <i32>p, <i32>(p >> 32));
  return <i32>popcnt(<u32>lo) + <i32>popcnt(<u32>stableHigh);
}

function finalScore(p: u64, o: u64, empties: i32): i32 {
  const diff = <i32>popcnt(p) - <i32>popcnt(o);
  return diff > 0 ? diff + empties : diff < 0 ? diff - empties : 0;
}

/** One empty square left, the player to move: count the flips instead of playing the move. */
function lastSquare(p: u64, o: u64, sq: i32): i32 {
  const diff = 2 * <i32>popcnt(p) - 63;
  let n = lastFlipCount(sq, p);
  if (n > 0) return diff + 2 * n + 1;
  n = lastFlipCount(sq, o);
  if (n > 0) return diff - 2 * n - 1;
  return diff > 0 ? diff + 1 : diff - 1;
}

function lastTwo(p: u64, o: u64, alpha: i32, beta: i32, a: i32, b: i32, passed: bool): i32 {
  let best = NO_SCORE;
  if ((o & unchecked(ADJACENT[a])) != 0) {
    const f = flips(a, p, o);
    if (f != 0) {
      best = -lastSquare(o ^ f, p | f | bit(a), b);
      if (best >= beta) return best;
    }
  }
  if ((o & unchecked(ADJACENT[b])) != 0) {
    const f = flips(b, p, o);
    if (f != 0) {
      const score = -lastSquare(o ^ f, p | f | bit(b), a);
      if (score > best) best = score;
    }
  }
  if (best > NO_SCORE) return best;
  if (passed) return finalScore(p, o, 2);
  nodes++;
  return -lastTwo(o, p, -beta, -alpha, a, b, true);
}

function lastThree(p: u64, o: u64, alpha: i32, beta: i32, a: i32, b: i32, c: i32, passed: bool): i32 {
  nodes++;
  let best = NO_SCORE;
  if ((o & unchecked(ADJACENT[a])) != 0) {
    const f = flips(a, p, o);
    if (f != 0) {
      const score = -lastTwo(o ^ f, p | f | bit(a), -beta, -alpha, b, c, false);
      if (score >= beta) return score;
      best = score;
      if (score > alpha) alpha = score;
    }
  }
  if ((o & unchecked(ADJACENT[b])) != 0) {
    const f = flips(b, p, o);
    if (f != 0) {
      const score = -lastTwo(o ^ f, p | f | bit(b), -beta, -alpha, a, c, false);
      if (score >= beta) return score;
      if (score > best) {
        best = score;
        if (score > alpha) alpha = score;
      }
    }
  }
  if ((o & unchecked(ADJACENT[c])) != 0) {
    const f = flips(c, p, o);
    if (f != 0) {
      const score = -lastTwo(o ^ f, p | f | bit(c), -beta, -alpha, a, b, false);
      if (score > best) best = score;
    }
  }
  if (best > NO_SCORE) return best;
  if (passed) return finalScore(p, o, 3);
  return -lastThree(o, p, -beta, -alpha, a, b, c, true);
}

function lastFour(p: u64, o: u64, alpha: i32, beta: i32, a: i32, b: i32, c: i32, d: i32, passed: bool): i32 {
  nodes++;
  let best = NO_SCORE;
  if ((o & unchecked(ADJACENT[a])) != 0) {
    const f = flips(a, p, o);
    if (f != 0) {
      const score = -lastThree(o ^ f, p | f | bit(a), -beta, -alpha, b, c, d, false);
      if (score >= beta) return score;
      best = score;
      if (score > alpha) alpha = score;
    }
  }
  if ((o & unchecked(ADJACENT[b])) != 0) {
    const f = flips(b, p, o);
    if (f != 0) {
      const score = -lastThree(o ^ f, p | f | bit(b), -beta, -alpha, a, c, d, false);
      if (score >= beta) return score;
      if (score > best) {
        best = score;
        if (score > alpha) alpha = score;
      }
    }
  }
  if ((o & unchecked(ADJACENT[c])) != 0) {
    const f = flips(c, p, o);
    if (f != 0) {
      const score = -lastThree(o ^ f, p | f | bit(c), -beta, -alpha, a, b, d, false);
      if (score >= beta) return score;
      if (score > best) {
        best = score;
        if (score > alpha) alpha = score;
      }
    }
  }
  if ((o & unchecked(ADJACENT[d])) != 0) {
    const f = flips(d, p, o);
    if (f != 0) {
      const score = -lastThree(o ^ f, p | f | bit(d), -beta, -alpha, a, b, c, false);
      if (score > best) best = score;
    }
  }
  if (best > NO_SCORE) return best;
  if (passed) return finalScore(p, o, 4);
  return -lastFour(o, p, -beta, -alpha, a, b, c, d, true);
}

/** Quadrants with an odd number of empty squares, one bit each (solver.ts QUADRANT). */
// @ts-ignore: decorator
@inline
function parityOf(empty: u64): i32 {
  return (
    (<i32>popcnt(empty & 0x000000000f0f0f0f) & 1) |
    ((<i32>popcnt(empty & 0x00000000f0f0f0f0) & 1) << 1) |
    ((<i32>popcnt(empty & 0x0f0f0f0f00000000) & 1) << 2) |
    ((<i32>popcnt(empty & 0xf0f0f0f000000000) & 1) << 3)
  );
}

function shallow(p: u64, o: u64, alpha: i32, beta: i32, empties: i32, passed: bool): i32 {
  nodes++;
  const empty = ~(p | o);
  if (empties <= 4 && empties >= 2) {
    let a = -1;
    let b = -1;
    let c = -1;
    let d = -1;
    for (let i = 0; i < orderCount; i++) {
      const sq = unchecked(ORDER[i]);
      if ((empty & bit(sq)) == 0) continue;
      if (a < 0) a = sq;
      else if (b < 0) b = sq;
      else if (c < 0) c = sq;
      else d = sq;
    }
    if (empties == 2) return lastTwo(p, o, alpha, beta, a, b, passed);
    if (empties == 3) return lastThree(p, o, alpha, beta, a, b, c, passed);
    const q = parityOf(empty);
    if ((q & unchecked(QUADRANT[a])) == 0) {
      if ((q & unchecked(QUADRANT[b])) != 0) {
        if ((q & unchecked(QUADRANT[c])) != 0) return lastFour(p, o, alpha, beta, b, c, a, d, passed);
        return lastFour(p, o, alpha, beta, b, d, a, c, passed);
      }
      if ((q & unchecked(QUADRANT[c])) != 0) return lastFour(p, o, alpha, beta, c, d, a, b, passed);
    }
    return lastFour(p, o, alpha, beta, a, b, c, d, passed);
  }
  if (alpha >= unchecked(STABILITY_THRESHOLD[empties])) {
    const bound = SCORE_MAX - 2 * opponentStableCount(p, o);
    if (bound <= alpha) return bound;
    if (bound < beta) beta = bound;
  }
  let best = NO_SCORE;
  const q = parityOf(empty);
  for (let sweep = 0; sweep < 2; sweep++) {
    const wantOdd = sweep == 0;
    for (let i = 0; i < orderCount; i++) {
      const sq = unchecked(ORDER[i]);
      const b = bit(sq);
      if ((empty & b) == 0) continue;
      if (((q & unchecked(QUADRANT[sq])) != 0) != wantOdd) continue;
      if ((o & unchecked(ADJACENT[sq])) == 0) continue;
      const f = flips(sq, p, o);
      if (f == 0) continue;
      const score = -shallow(o ^ f, p | f | b, -beta, -alpha, empties - 1, false);
      if (score > best) {
        best = score;
        if (score > alpha) {
          alpha = score;
          if (score >= beta) return best;
        }
      }
    }
  }
  if (best > NO_SCORE) return best;
  if (passed) return finalScore(p, o, empties);
  return -shallow(o, p, -beta, -alpha, empties, true);
}

/**
 * The exact score (or a fail-soft bound outside (alpha, beta)) for the player (pl, ph) to move against
 * (ol, oh) with `empties` (at most 8) empty squares, given in the solver's list order, four per word, a
 * byte each: squares 0-3 in `first`, 4-7 in `second`. Nodes are counted as solver.ts counts them (takeNodes).
 */
export function solveShallow(pl: i32, ph: i32, ol: i32, oh: i32, alpha: i32, beta: i32, empties: i32, passed: i32, first: i32, second: i32): i32 {
  orderCount = empties;
  for (let i = 0; i < empties; i++) unchecked((ORDER[i] = ((i < 4 ? first >>> (8 * i) : second >>> (8 * (i - 4))) & 0xff)));
  return shallow(board(pl, ph), board(ol, oh), alpha, beta, empties, passed != 0);
}

// ---- Deep nodes: solver.ts's deep() for SHALLOW_EMPTIES < empties <= MID_EMPTIES ----

/** The solver's constants (solver.ts): keep them equal, the tests compare node counts. */
const SHALLOW_EMPTIES: i32 = 7;
/** Most empties a deep node here may have: below the solver's EVAL_ORDER_EMPTIES (the evaluation is not here). */
const MID_EMPTIES: i32 = 12;
const ETC_EMPTIES: i32 = 10;
const SELECTIVE_EMPTIES: i32 = 11;
/** Moves searched per node from SELECTIVE_EMPTIES empties (the solver's selective pass; 32 = all). */
let width: i32 = 32;
const TT_BITS: i32 = 18;
const TT_MASK: i32 = (1 << TT_BITS) - 1;
const TT_INTS: i32 = 8;
const REPLY_WEIGHT: i32 = 16;
const CORNER_STABILITY_WEIGHT: i32 = 4;
const CORNERS: u64 = 0x8100000000000081;
const MAX_MOVES: i32 = 32;
/** Mid nodes nest at most MID_EMPTIES - SHALLOW_EMPTIES deep, twice that with passes. */
const MID_PLIES: i32 = 2 * (MID_EMPTIES - SHALLOW_EMPTIES) + 2;
/** The solver's square order (square-priority.ts, copied in by the host). */
const SQUARE_PRIORITY = new StaticArray<i32>(64);

export function squarePriorityAddress(): usize {
  return changetype<usize>(SQUARE_PRIORITY);
}

/** The solver's transposition table (solver.ts reads and writes it through a view of this memory). */
const TABLE = new StaticArray<i32>((1 << TT_BITS) * TT_INTS);
const MOVES = new StaticArray<i32>(MID_PLIES * MAX_MOVES);
const KEYS = new StaticArray<i32>(MID_PLIES * MAX_MOVES);
const MOVE_FLIPS = new StaticArray<u64>(MID_PLIES * MAX_MOVES);

export function tableAddress(): usize {
  return changetype<usize>(TABLE);
}
export function tableInts(): i32 {
  return TABLE.length;
}

/** solver.ts's ttSlot on the same int32 halves. */
// @ts-ignore: decorator
@inline
function tableSlot(pl: i32, ph: i32, ol: i32, oh: i32): i32 {
  let h = (pl ^ 0x2545f491) * <i32>0x9e3779b1;
  h = (h ^ ph ^ <i32>(<u32>h >> 15)) * <i32>0x85ebca6b;
  h = (h ^ ol ^ <i32>(<u32>h >> 13)) * <i32>0xc2b2ae35;
  h = (h ^ oh ^ <i32>(<u32>h >> 16)) * 0x27d4eb2f;
  h ^= <i32>(<u32>h >> 15);
  return (h & TT_MASK) * TT_INTS;
}

/** solver.ts's cornerStability: own corners and the edge squares next to own corners. */
// @ts-ignore: decorator
@inline
function cornerStability(p: u64): i32 {
  const pl = <i32>p;
  const ph = <i32>(p >> 32);
  const lo = (((pl & 0x01) << 1) | ((pl & 0x80) >>> 1) | ((pl & 0x81) << 8) | 0x81) & pl;
  const hi = (((ph & 0x01000000) << 1) | (<i32>(<u32>(ph & <i32>0x80000000) >> 1)) | (<i32>(<u32>(ph & <i32>0x81000000) >> 8)) | <i32>0x81000000) & ph;
  return <i32>popcnt(<u32>lo) + <i32>popcnt(<u32>hi);
}

// @ts-ignore: decorator
@inline
function tableHolds(slot: i32, pl: i32, ph: i32, ol: i32, oh: i32): bool {
  return (
    unchecked(TABLE[slot]) == pl &&
    unchecked(TABLE[slot + 1]) == ph &&
    unchecked(TABLE[slot + 2]) == ol &&
    unchecked(TABLE[slot + 3]) == oh &&
    unchecked(TABLE[slot + 7]) != 0
  );
}

function search(p: u64, o: u64, alpha: i32, beta: i32, empties: i32, passed: bool, ply: i32): i32 {
  return empties <= SHALLOW_EMPTIES ? shallow(p, o, alpha, beta, empties, passed) : deep(p, o, alpha, beta, empties, passed, ply);
}

function deep(p: u64, o: u64, alpha: i32, beta: i32, empties: i32, passed: bool, ply: i32): i32 {
  nodes++;
  const pl = <i32>p;
  const ph = <i32>(p >> 32);
  const ol = <i32>o;
  const oh = <i32>(o >> 32);
  const slot = tableSlot(pl, ph, ol, oh);
  let tableMove = -1;
  if (tableHolds(slot, pl, ph, ol, oh)) {
    const lower = unchecked(TABLE[slot + 4]);
    const upper = unchecked(TABLE[slot + 5]);
    if (lower >= beta) return lower;
    if (upper <= alpha) return upper;
    if (lower == upper) return lower;
    if (lower > alpha) alpha = lower;
    if (upper < beta) beta = upper;
    tableMove = unchecked(TABLE[slot + 6]);
  }
  if (alpha >= unchecked(STABILITY_THRESHOLD[empties])) {
    const bound = SCORE_MAX - 2 * opponentStableCount(p, o);
    if (bound <= alpha) return bound;
    if (bound < beta) beta = bound;
  }

  const legal = mobility(p, o);
  if (legal == 0) {
    if (passed) return finalScore(p, o, empties);
    return -search(o, p, -beta, -alpha, empties, true, ply + 1);
  }

  // Fewest opponent replies first (corners twice), own sure-stable corner discs favoured, the table's move first.
  const base = ply * MAX_MOVES;
  let count = 0;
  for (let i = 0; i < orderCount; i++) {
    const sq = unchecked(ORDER[i]);
    const b = bit(sq);
    if ((legal & b) == 0) continue;
    const f = flips(sq, p, o);
    const np = p | f | b;
    const no = o ^ f;
    if (empties >= ETC_EMPTIES) {
      const nol = <i32>no;
      const noh = <i32>(no >> 32);
      const npl = <i32>np;
      const nph = <i32>(np >> 32);
      const child = tableSlot(nol, noh, npl, nph);
      if (tableHolds(child, nol, noh, npl, nph)) {
        const score = -unchecked(TABLE[child + 5]);
        if (score >= beta) return score;
      }
    }
    const replies = mobility(no, np);
    let key = (<i32>popcnt(replies) + <i32>popcnt(replies & CORNERS)) * REPLY_WEIGHT;
    key -= cornerStability(np) * CORNER_STABILITY_WEIGHT;
    if (sq == tableMove) key = -1000;
    let j = base + count;
    while (j > base && unchecked(KEYS[j - 1]) > key) {
      unchecked((MOVES[j] = MOVES[j - 1]));
      unchecked((KEYS[j] = KEYS[j - 1]));
      unchecked((MOVE_FLIPS[j] = MOVE_FLIPS[j - 1]));
      j--;
    }
    unchecked((MOVES[j] = sq));
    unchecked((KEYS[j] = key));
    unchecked((MOVE_FLIPS[j] = f));
    count++;
  }

  const alphaOrig = alpha;
  let best = NO_SCORE;
  let bestMove = -1;
  if (count > width && empties >= SELECTIVE_EMPTIES) count = width;
  for (let i = 0; i < count; i++) {
    const at = base + i;
    const sq = unchecked(MOVES[at]);
    const f = unchecked(MOVE_FLIPS[at]);
    const np = p | f | bit(sq);
    const no = o ^ f;
    let score: i32;
    if (i == 0) {
      score = -search(no, np, -beta, -alpha, empties - 1, false, ply + 1);
    } else {
      score = -search(no, np, -alpha - 1, -alpha, empties - 1, false, ply + 1);
      if (score > alpha && score < beta) score = -search(no, np, -beta, -alpha, empties - 1, false, ply + 1);
    }
    if (score > best) {
      best = score;
      bestMove = sq;
      if (score > alpha) {
        alpha = score;
        if (score >= beta) break;
      }
    }
  }

  let lower = -SCORE_MAX;
  let upper = SCORE_MAX;
  if (tableHolds(slot, pl, ph, ol, oh)) {
    lower = unchecked(TABLE[slot + 4]);
    upper = unchecked(TABLE[slot + 5]);
  }
  if (best >= beta) {
    if (best > lower) lower = best;
  } else if (best <= alphaOrig) {
    if (best < upper) upper = best;
  } else {
    lower = best;
    upper = best;
  }
  unchecked((TABLE[slot] = pl));
  unchecked((TABLE[slot + 1] = ph));
  unchecked((TABLE[slot + 2] = ol));
  unchecked((TABLE[slot + 3] = oh));
  unchecked((TABLE[slot + 4] = lower));
  unchecked((TABLE[slot + 5] = upper));
  unchecked((TABLE[slot + 6] = bestMove));
  unchecked((TABLE[slot + 7] = empties));
  return best;
}

/**
 * solver.ts's search of a node with SHALLOW_EMPTIES < empties <= MID_EMPTIES: the exact score (or a fail-soft
 * bound outside (alpha, beta)) for the player (pl, ph) against (ol, oh); the empties go in the solver's square
 * priority; `moves` is the solver's width (its selective pass). Nodes are counted as solver.ts counts them (takeNodes).
 * It is not stopped midway: a subtree of MID_EMPTIES empties takes milliseconds (docs/othello-engine.md).
 */
export function solveMid(pl: i32, ph: i32, ol: i32, oh: i32, alpha: i32, beta: i32, empties: i32, passed: i32, moves: i32): i32 {
  width = moves;
  const p = board(pl, ph);
  const o = board(ol, oh);
  const empty = ~(p | o);
  let n = 0;
  for (let i = 0; n < empties && i < 64; i++) {
    const sq = unchecked(SQUARE_PRIORITY[i]);
    if ((empty & bit(sq)) != 0) unchecked((ORDER[n++] = sq));
  }
  orderCount = empties;
  return deep(p, o, alpha, beta, empties, passed != 0, 0);
}

/** The largest number of empties solveMid takes. */
export function midEmpties(): i32 {
  return MID_EMPTIES;
}
