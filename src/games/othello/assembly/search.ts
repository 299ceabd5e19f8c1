/**
 * AssemblyScript kernel of the Othello midgame search (compiled by `npm run build` to
 * dist/src/games/othello/search.wasm; loaded by ../search-kernel.ts). One call searches a whole subtree:
 * it is src/search/search.ts's negamax, step for step, on u64 boards with the pattern evaluation inside
 * (pattern-eval.ts evaluateIndexed, indices kept as position.ts keeps them): the same principal-variation
 * search, transposition-table use, mate-distance pruning, Multi-ProbCut, move ordering (TT move,
 * killers, history, position.ts's moveOrderScore), late-move reductions and node count, so the node
 * counts, scores and moves are those of the TypeScript path (tests and the bench's signatures check it).
 *
 * The transposition table is a copy of the search's in this memory, or the host's through imports (a table
 * shared by Lazy SMP threads); the stop check is an import (every checkMask + 1 nodes, as the TypeScript
 * search does); the killer, history and PV tables live here and the host's search reads them as its own.
 * Where it does the same work more cheaply (hints computed when first needed, vectors): docs/othello-engine.md.
 * Not tsc input (tsconfig excludes this folder): `i32`, `u64`, `unchecked`, `popcnt` are AssemblyScript's.
 */
import { bit, board, flips, mobility } from './bitboard';
import {
  BOUND_EXACT,
  BOUND_LOWER,
  BOUND_UPPER,
  EVAL_LIMIT,
  HINT_WEIGHT,
  HISTORY_LIMIT,
  INFINITE_SCORE,
  KILLER_BONUS_1,
  KILLER_BONUS_2,
  MAX_PLY,
  PROVEN_THRESHOLD,
  TACTICAL_ORDER_SCORE,
  TT_MOVE_BONUS,
  WIN_SCORE,
  isProven,
  pollStop,
  ttProbe,
  ttStore,
} from '../../../search/assembly/host';

// search.ts's own (the shared ones: ../../../search/assembly/host.ts).
const NO_CUT: i32 = -(1 << 30);
// Othello (board.ts, patterns.ts, probcut.ts, pattern-eval.ts).
const PASS_MOVE: i32 = 64;
const MOVE_SPACE: i32 = 65;
const INSTANCES: i32 = 46;
const INDEX_BITS: i32 = 16;
const INDEX_MASK: i32 = (1 << INDEX_BITS) - 1;
const LINEAR_COUNT: i32 = 7;
const PROBCUT_END_MARGIN: i32 = 4;
const CORNERS: u64 = 0x8100000000000081;
const MOVES_PER_PLY: i32 = 64;

/** The search tables the host reads as its own (search.ts: killers, history, pvTable, pvLength). */
const KILLERS = new StaticArray<i32>(MAX_PLY * 2);
const HISTORY = new StaticArray<i32>(2 * MOVE_SPACE);
const PV_TABLE = new StaticArray<i32>(MAX_PLY * MAX_PLY);
const PV_LENGTH = new StaticArray<i32>(MAX_PLY + 1);
/** A table hit written by the host's ttProbe: move, score (at the probing ply), depth, bound, exact-subtree flag. */
const HIT = new StaticArray<i32>(8);
/** Per ply: the pattern index words (position.ts's block), the move list and its ordering scores. */
const INDEX_STACK = new StaticArray<i32>((MAX_PLY + 1) * INSTANCES);
const MOVES = new StaticArray<i32>((MAX_PLY + 1) * MOVES_PER_PLY);
const SCORES = new StaticArray<i32>((MAX_PLY + 1) * MOVES_PER_PLY);
/**
 * Per square of a node's moves (ply * 64 + square), when the move's ordering hint computed them: its flips
 * and the reply's legal moves (UNKNOWN otherwise). By square, so the move list's sorting leaves them in place.
 */
const FLIPS = new StaticArray<u64>((MAX_PLY + 1) * MOVES_PER_PLY);
const REPLIES = new StaticArray<u64>((MAX_PLY + 1) * MOVES_PER_PLY);
/** The same, by square: the mover's own legal moves after the move, which a leaf's evaluation needs (its opponent's mobility). */
const OWN_AFTER = new StaticArray<u64>((MAX_PLY + 1) * 64);
/** No set of legal moves covers the whole board (four discs are always on it). */
const UNKNOWN: u64 = 0xffffffffffffffff;
/** Zobrist keys by square (zobrist.ts, per colour * 64 + square; flips per square) and the side key. */
const PLACE_LO = new StaticArray<i32>(128);
const PLACE_HI = new StaticArray<i32>(128);
const FLIP_LO = new StaticArray<i32>(64);
const FLIP_HI = new StaticArray<i32>(64);
let sideLo: i32 = 0;
let sideHi: i32 = 0;
/** patterns.ts's SQUARE_SLOT_START; pattern-eval.ts's instance offsets; position.ts's SQUARE_ORDER. */
const SLOT_START = new StaticArray<i32>(65);
const INSTANCE_OFFSET = new StaticArray<i32>(INSTANCES);
const SQUARE_ORDER = new StaticArray<i32>(64);
/**
 * The index update's table, built by setData from SQUARE_SLOTS and SQUARE_DIGITS: per square, a block of 48
 * words (the 46 instance words and two zeros) holding the square's digit in each instance through it, so a
 * child's block is the parent's plus whole-block multiples of a few of these, twelve vectors at a time.
 */
const DELTA_WORDS: i32 = 48;
const DELTAS = new StaticArray<i32>(64 * DELTA_WORDS);
const EVAL_STAGE = new StaticArray<i32>(65);
const PROBCUT_STAGE = new StaticArray<i32>(65);
/** Allocated by the host (sizes depend on its data): SQUARE_SLOTS, SQUARE_DIGITS, weights, ProbCut table. */
let slots: usize = 0;
let digits: usize = 0;
let tables: usize = 0;
let linear: usize = 0;
let patternBlock: i32 = 0;
let probCutShallow: usize = 0;
let probCutParams: usize = 0;
let probCutStages: i32 = 0;
let probCutMaxDepth: i32 = -1;

/**
 * The transposition table when it lives in this memory (src/search/tt.ts's layout and rules, ported below):
 * its address and bucket mask, and the search's age; tableAt 0 = the host's table, through the imports.
 */
let tableAt: usize = 0;
let bucketMask: i32 = 0;
let age: i32 = 1;

/** Per call: the search's settings and counters (read back by the host). */
let keyLo: i32 = 0;
let keyHi: i32 = 0;
let checkMask: i32 = 127;
let confidence: f64 = 0;
let nodes: i64 = 0;
let leaves: i32 = 0;
let cuts: i32 = 0;
let stopped: bool = false;

export function alloc(bytes: i32): usize {
  return heap.alloc(<usize>bytes);
}

export function killersAddress(): usize {
  return changetype<usize>(KILLERS);
}
export function historyAddress(): usize {
  return changetype<usize>(HISTORY);
}
export function pvTableAddress(): usize {
  return changetype<usize>(PV_TABLE);
}
export function pvLengthAddress(): usize {
  return changetype<usize>(PV_LENGTH);
}
export function hitAddress(): usize {
  return changetype<usize>(HIT);
}
export function indexStackAddress(): usize {
  return changetype<usize>(INDEX_STACK);
}
export function placeLoAddress(): usize {
  return changetype<usize>(PLACE_LO);
}
export function placeHiAddress(): usize {
  return changetype<usize>(PLACE_HI);
}
export function flipLoAddress(): usize {
  return changetype<usize>(FLIP_LO);
}
export function flipHiAddress(): usize {
  return changetype<usize>(FLIP_HI);
}
export function slotStartAddress(): usize {
  return changetype<usize>(SLOT_START);
}
export function instanceOffsetAddress(): usize {
  return changetype<usize>(INSTANCE_OFFSET);
}
export function squareOrderAddress(): usize {
  return changetype<usize>(SQUARE_ORDER);
}
export function evalStageAddress(): usize {
  return changetype<usize>(EVAL_STAGE);
}
export function probCutStageAddress(): usize {
  return changetype<usize>(PROBCUT_STAGE);
}

/** The host's data: addresses it allocated and filled, and scalar settings. */
export function setData(
  slotsAt: usize,
  digitsAt: usize,
  tablesAt: usize,
  linearAt: usize,
  block: i32,
  shallowAt: usize,
  paramsAt: usize,
  stages: i32,
  maxDepth: i32,
  keySideLo: i32,
  keySideHi: i32,
): void {
  slots = slotsAt;
  digits = digitsAt;
  tables = tablesAt;
  linear = linearAt;
  patternBlock = block;
  probCutShallow = shallowAt;
  probCutParams = paramsAt;
  probCutStages = stages;
  probCutMaxDepth = maxDepth;
  sideLo = keySideLo;
  sideHi = keySideHi;
  for (let i = 0; i < 64 * DELTA_WORDS; i++) unchecked((DELTAS[i] = 0));
  for (let sq = 0; sq < 64; sq++) {
    for (let k = unchecked(SLOT_START[sq]), end = unchecked(SLOT_START[sq + 1]); k < end; k++) {
      const slot = load<i32>(slots + ((<usize>k) << 2));
      unchecked((DELTAS[sq * DELTA_WORDS + slot] += load<i32>(digits + ((<usize>k) << 2))));
    }
  }
}

/** A table of `bytes` (a power of two of 32-byte buckets) in this memory: its address (zeroed: fresh pages). */
export function allocTable(bytes: i32): usize {
  return heap.alloc(<usize>bytes);
}

/** Searches through the table at `at` (0: the host's, through the imports). */
export function useTable(at: usize, mask: i32): void {
  tableAt = at;
  bucketMask = mask;
}

export function nodesAfter(): f64 {
  return <f64>nodes;
}
export function heuristicLeaves(): i32 {
  return leaves;
}
export function probCuts(): i32 {
  return cuts;
}
export function wasStopped(): i32 {
  return stopped ? 1 : 0;
}

/** movesAlong for two boards at once (one per 64-bit lane). */
// @ts-ignore: decorator
@inline
function movesAlong2(p: v128, mask: v128, d: i32): v128 {
  const d2 = d + d;
  let up = v128.and(mask, i64x2.shl(p, d));
  up = v128.or(up, v128.and(mask, i64x2.shl(up, d)));
  const pairUp = v128.and(mask, i64x2.shl(mask, d));
  up = v128.or(up, v128.and(pairUp, i64x2.shl(up, d2)));
  up = v128.or(up, v128.and(pairUp, i64x2.shl(up, d2)));
  let down = v128.and(mask, i64x2.shr_u(p, d));
  down = v128.or(down, v128.and(mask, i64x2.shr_u(down, d)));
  const pairDown = v128.and(mask, i64x2.shr_u(mask, d));
  down = v128.or(down, v128.and(pairDown, i64x2.shr_u(down, d2)));
  down = v128.or(down, v128.and(pairDown, i64x2.shr_u(down, d2)));
  return v128.or(i64x2.shl(up, d), i64x2.shr_u(down, d));
}

/** mobility of two positions at once: lane k holds mobility(p lane k, o lane k). */
// @ts-ignore: decorator
@inline
function mobility2(p: v128, o: v128): v128 {
  const inner = v128.and(o, i64x2.splat(0x7e7e7e7e7e7e7e7e));
  const moves = v128.or(
    v128.or(movesAlong2(p, inner, 1), movesAlong2(p, o, 8)),
    v128.or(movesAlong2(p, inner, 7), movesAlong2(p, inner, 9)),
  );
  return v128.andnot(moves, v128.or(p, o));
}

/** Squares next to a disc of x, x itself excluded (board.ts's neighbours). */
// @ts-ignore: decorator
@inline
function neighbours(x: u64): u64 {
  const row = x | ((x & 0x7f7f7f7f7f7f7f7f) << 1) | ((x & 0xfefefefefefefefe) >> 1);
  return (row | (row << 8) | (row >> 8)) & ~x;
}

// @ts-ignore: decorator
@inline
function count(x: u64): i32 {
  return <i32>popcnt(x);
}

/** JavaScript's Math.round (halves towards +infinity), exact for every double the evaluation makes. */
// @ts-ignore: decorator
@inline
function jsRound(x: f64): f64 {
  const r = Math.floor(x);
  return x - r >= 0.5 ? r + 1 : r;
}

/**
 * The weights of four instances (words k..k+3 of the block at `words`): their table addresses computed in one
 * vector (Black's view, or White's as 3 x occupancy - Black's), then four loads. Integer sums, so any grouping
 * gives pattern-eval.ts's value.
 */
// @ts-ignore: decorator
@inline
function fourWeights(words: usize, k: i32, white: bool, base: v128): i32 {
  const word = v128.load(words + ((<usize>k) << 2));
  const black = v128.and(word, i32x4.splat(INDEX_MASK));
  const view = white ? i32x4.sub(i32x4.mul(i32x4.shr_u(word, INDEX_BITS), i32x4.splat(3)), black) : black;
  const offsets = v128.load(changetype<usize>(INSTANCE_OFFSET) + ((<usize>k) << 2));
  const at = i32x4.add(base, i32x4.shl(i32x4.add(view, offsets), 1));
  return (
    <i32>load<i16>(<usize>i32x4.extract_lane(at, 0)) +
    <i32>load<i16>(<usize>i32x4.extract_lane(at, 1)) +
    <i32>load<i16>(<usize>i32x4.extract_lane(at, 2)) +
    <i32>load<i16>(<usize>i32x4.extract_lane(at, 3))
  );
}

/** The weight of instance k alone (the block's last two words). */
// @ts-ignore: decorator
@inline
function oneWeight(words: usize, k: i32, white: bool, base: usize): i32 {
  const word = load<i32>(words + ((<usize>k) << 2));
  const view = white ? 3 * (word >>> INDEX_BITS) - (word & INDEX_MASK) : word & INDEX_MASK;
  return <i32>load<i16>(base + ((<usize>(unchecked(INSTANCE_OFFSET[k]) + view)) << 1));
}

// @ts-ignore: decorator
@inline
function patternSum(words: usize, white: bool, base: usize): i32 {
  const b = i32x4.splat(<i32>base);
  return (
    fourWeights(words, 0, white, b) +
    fourWeights(words, 4, white, b) +
    fourWeights(words, 8, white, b) +
    fourWeights(words, 12, white, b) +
    fourWeights(words, 16, white, b) +
    fourWeights(words, 20, white, b) +
    fourWeights(words, 24, white, b) +
    fourWeights(words, 28, white, b) +
    fourWeights(words, 32, white, b) +
    fourWeights(words, 36, white, b) +
    fourWeights(words, 40, white, b) +
    oneWeight(words, 44, white, base) +
    oneWeight(words, 45, white, base)
  );
}

/** pattern-eval.ts's evaluateIndexed: the same sums in the same order, so the same value to the last bit. */
function evaluate(at: i32, side: i32, empties: i32, p: u64, o: u64, moves: u64, replies: u64): i32 {
  const stage = unchecked(EVAL_STAGE[empties]);
  const base = tables + ((<usize>(stage * patternBlock)) << 1);
  const words = changetype<usize>(INDEX_STACK) + ((<usize>at) << 2);
  const sum = side == 0 ? patternSum(words, false, base) : patternSum(words, true, base);
  const empty = ~(p | o);
  const k = linear + ((<usize>(stage * LINEAR_COUNT)) << 3);
  let value = <f64>sum;
  value += load<f64>(k) * <f64>count(moves);
  value += load<f64>(k, 8) * <f64>count(replies);
  value += load<f64>(k, 16) * <f64>count(empty & neighbours(o));
  value += load<f64>(k, 24) * <f64>count(empty & neighbours(p));
  value += load<f64>(k, 32) * <f64>(count(moves & CORNERS) - count(replies & CORNERS));
  value += load<f64>(k, 40) * <f64>(count(empty) & 1);
  value += load<f64>(k, 48) * 1.0;
  return <i32>jsRound(value);
}

/** The block at `from` copied to the next ply's place (46 words: eleven 16-byte vectors and two words). */
// @ts-ignore: decorator
@inline
function copyBlock(from: i32): void {
  const src = changetype<usize>(INDEX_STACK) + ((<usize>from) << 2);
  const dst = src + ((<usize>INSTANCES) << 2);
  for (let k: usize = 0; k < 176; k += 16) v128.store(dst + k, v128.load(src + k));
  store<u64>(dst + 176, load<u64>(src + 176));
}

/**
 * Vector j of the child's block: the parent's, plus the placed square (digit x 1 for Black or 2 for White
 * in the low half, digit in the occupancy half), minus (Black) or plus (White) the flipped squares' sum.
 */
// @ts-ignore: decorator
@inline
function childVector(src: usize, placed: usize, j: usize, white: bool, flipped: v128): v128 {
  const d = v128.load(placed + (j << 4));
  const place = white ? i32x4.add(i32x4.add(d, d), i32x4.shl(d, INDEX_BITS)) : i32x4.add(d, i32x4.shl(d, INDEX_BITS));
  const v = i32x4.add(v128.load(src + (j << 4)), place);
  return white ? i32x4.add(v, flipped) : i32x4.sub(v, flipped);
}

/** position.ts's updateIndices: the child's block is the parent's plus the placed square and the flips. */
// @ts-ignore: decorator
@inline
function updateBlock(from: i32, move: i32, flipped: u64, white: bool): void {
  const deltas = changetype<usize>(DELTAS);
  let f0 = v128.splat<i32>(0);
  let f1 = f0, f2 = f0, f3 = f0, f4 = f0, f5 = f0, f6 = f0, f7 = f0, f8 = f0, f9 = f0, f10 = f0, f11 = f0;
  let f = flipped;
  while (f != 0) {
    const d = deltas + <usize>(<i32>ctz(f) * DELTA_WORDS * 4);
    f &= f - 1;
    f0 = i32x4.add(f0, v128.load(d));
    f1 = i32x4.add(f1, v128.load(d, 16));
    f2 = i32x4.add(f2, v128.load(d, 32));
    f3 = i32x4.add(f3, v128.load(d, 48));
    f4 = i32x4.add(f4, v128.load(d, 64));
    f5 = i32x4.add(f5, v128.load(d, 80));
    f6 = i32x4.add(f6, v128.load(d, 96));
    f7 = i32x4.add(f7, v128.load(d, 112));
    f8 = i32x4.add(f8, v128.load(d, 128));
    f9 = i32x4.add(f9, v128.load(d, 144));
    f10 = i32x4.add(f10, v128.load(d, 160));
    f11 = i32x4.add(f11, v128.load(d, 176));
  }
  const src = changetype<usize>(INDEX_STACK) + ((<usize>from) << 2);
  const dst = src + ((<usize>INSTANCES) << 2);
  const placed = deltas + <usize>(move * DELTA_WORDS * 4);
  v128.store(dst, childVector(src, placed, 0, white, f0));
  v128.store(dst, childVector(src, placed, 1, white, f1), 16);
  v128.store(dst, childVector(src, placed, 2, white, f2), 32);
  v128.store(dst, childVector(src, placed, 3, white, f3), 48);
  v128.store(dst, childVector(src, placed, 4, white, f4), 64);
  v128.store(dst, childVector(src, placed, 5, white, f5), 80);
  v128.store(dst, childVector(src, placed, 6, white, f6), 96);
  v128.store(dst, childVector(src, placed, 7, white, f7), 112);
  v128.store(dst, childVector(src, placed, 8, white, f8), 128);
  v128.store(dst, childVector(src, placed, 9, white, f9), 144);
  v128.store(dst, childVector(src, placed, 10, white, f10), 160);
  // Words 44 and 45 only (the last vector's other two belong to the next block).
  store<u64>(dst, i64x2.extract_lane(childVector(src, placed, 11, white, f11), 0), 176);
}

function updateIndices(from: i32, side: i32, move: i32, flipped: u64): void {
  if (side == 0) updateBlock(from, move, flipped, false);
  else updateBlock(from, move, flipped, true);
}

/**
 * position.ts's moveOrderScore: fewest replies (corners twice) first, then the square's quality. The flips
 * and the replies are kept at `at` (the node's ply * 64 + move) for making the move, and the mover's own moves
 * after it (the same vector computation, other lane) for a leaf's evaluation.
 */
function moveOrderScore(move: i32, p: u64, o: u64, at: i32): i32 {
  if (move == PASS_MOVE) return 0;
  const f = flips(move, p, o);
  const mover = p | f | bit(move);
  const opponent = o ^ f;
  const both = mobility2(i64x2.replace_lane(i64x2.splat(opponent), 1, mover), i64x2.replace_lane(i64x2.splat(mover), 1, opponent));
  const r = <u64>i64x2.extract_lane(both, 0);
  unchecked((FLIPS[at] = f));
  unchecked((REPLIES[at] = r));
  unchecked((OWN_AFTER[at] = <u64>i64x2.extract_lane(both, 1)));
  const replies = count(r) + count(r & CORNERS);
  return unchecked(SQUARE_ORDER[move]) - replies * 64;
}

// tt.ts, line for line: two 4-word slots per bucket, [key ^ data, move, score, meta]; meta = depth | bound << 8 |
// exact-subtree << 10 | age << 11; the key is verified against the words XORed together.
const AGE_MASK: i32 = 63;

// @ts-ignore: decorator
@inline
function verifies(slot: usize, hashHi: i32): bool {
  const meta = load<i32>(slot, 12);
  return meta != 0 && (load<i32>(slot) ^ load<i32>(slot, 4) ^ load<i32>(slot, 8) ^ meta) == hashHi;
}

/** tt.ts's probe and accessors: a hit fills HIT (move, score at this ply, depth, bound, exact-subtree flag). */
function probeTable(hashLo: i32, hashHi: i32, ply: i32): bool {
  const base = tableAt + ((<usize>(hashLo & bucketMask)) << 5);
  return probeSlot(base, hashHi, ply) || probeSlot(base + 16, hashHi, ply);
}

/** One slot of the bucket: a verified entry fills HIT. */
// @ts-ignore: decorator
@inline
function probeSlot(slot: usize, hashHi: i32, ply: i32): bool {
  const meta = load<i32>(slot, 12);
  if (meta == 0) return false;
  const move = load<i32>(slot, 4);
  const score = load<i32>(slot, 8);
  if ((load<i32>(slot) ^ move ^ score ^ meta) != hashHi) return false;
  unchecked((HIT[0] = move));
  unchecked((HIT[1] = score >= PROVEN_THRESHOLD ? score - ply : score <= -PROVEN_THRESHOLD ? score + ply : score));
  unchecked((HIT[2] = meta & 255));
  unchecked((HIT[3] = (meta >>> 8) & 3));
  unchecked((HIT[4] = (meta >>> 10) & 1));
  return true;
}

/** tt.ts's store: same slot choice, same keep-the-deeper rule, same words. */
function storeTable(hashLo: i32, hashHi: i32, depth: i32, bound: i32, score: i32, ply: i32, move: i32, exact: i32): void {
  const base = tableAt + ((<usize>(hashLo & bucketMask)) << 5);
  const other = base + 16;
  let slot: usize;
  if (verifies(base, hashHi)) slot = base;
  else if (verifies(other, hashHi)) slot = other;
  else {
    const metaA = load<i32>(base, 12);
    const metaB = load<i32>(other, 12);
    if (metaA == 0) slot = base;
    else if (metaB == 0) slot = other;
    else {
      const staleA = ((metaA >>> 11) & AGE_MASK) != age;
      const staleB = ((metaB >>> 11) & AGE_MASK) != age;
      if (staleA != staleB) slot = staleA ? base : other;
      else slot = (metaA & 255) <= (metaB & 255) ? base : other;
    }
  }
  const meta = load<i32>(slot, 12);
  const oldMove = load<i32>(slot, 4);
  const sameKey = verifies(slot, hashHi);
  if (sameKey && ((meta >>> 11) & AGE_MASK) == age && (meta & 255) > depth + 2 && bound != BOUND_EXACT) {
    if (move >= 0 && oldMove < 0) {
      store<i32>(slot, move, 4);
      store<i32>(slot, hashHi ^ move ^ load<i32>(slot, 8) ^ meta);
    }
    return;
  }
  const newMove = move >= 0 || !sameKey ? move : oldMove;
  const newScore = score >= PROVEN_THRESHOLD ? score + ply : score <= -PROVEN_THRESHOLD ? score - ply : score;
  const newMeta = (min(depth, 255) & 255) | (bound << 8) | (exact << 10) | (age << 11);
  store<i32>(slot, hashHi ^ newMove ^ newScore ^ newMeta);
  store<i32>(slot, newMove, 4);
  store<i32>(slot, newScore, 8);
  store<i32>(slot, newMeta, 12);
}

function updatePv(ply: i32, move: i32): void {
  const row = ply * MAX_PLY;
  const childRow = (ply + 1) * MAX_PLY;
  unchecked((PV_TABLE[row + ply] = move));
  const childLength = unchecked(PV_LENGTH[ply + 1]);
  let length = ply + 1;
  for (let i = ply + 1; i < childLength; i++) unchecked((PV_TABLE[row + i] = PV_TABLE[childRow + i]));
  if (childLength > length) length = childLength;
  unchecked((PV_LENGTH[ply] = length));
}

function onCutoff(move: i32, ply: i32, depth: i32, historyBase: i32, ttMove: i32): void {
  if (move != ttMove && unchecked(KILLERS[ply * 2]) != move) {
    unchecked((KILLERS[ply * 2 + 1] = KILLERS[ply * 2]));
    unchecked((KILLERS[ply * 2] = move));
  }
  const v = unchecked(HISTORY[historyBase + move]) + depth * depth;
  if (v >= HISTORY_LIMIT) {
    for (let i = 0; i < 2 * MOVE_SPACE; i++) unchecked((HISTORY[i] >>= 1));
    unchecked((HISTORY[historyBase + move] = v >> 1));
  } else {
    unchecked((HISTORY[historyBase + move] = v));
  }
}

/** search.ts's probCut with position.ts's probe (probcut.ts probCutProbe). */
function probCut(depth: i32, alpha: i32, beta: i32, ply: i32, p: u64, o: u64, side: i32, hashLo: i32, hashHi: i32, empties: i32, known: u64): i32 {
  if (confidence <= 0 || depth > probCutMaxDepth || empties < depth + PROBCUT_END_MARGIN) return NO_CUT;
  const shallow = load<i32>(probCutShallow + ((<usize>depth) << 2));
  if (shallow < 0 || shallow >= depth) return NO_CUT;
  const at = probCutParams + ((<usize>((depth * probCutStages + unchecked(PROBCUT_STAGE[empties])) * 3)) << 3);
  const sigma = load<f64>(at, 16);
  if (sigma == 0) return NO_CUT;
  const slope = load<f64>(at);
  const intercept = load<f64>(at, 8);
  const margin = confidence * sigma;
  if (beta < EVAL_LIMIT) {
    const up = Math.ceil((<f64>beta + margin - intercept) / slope);
    if (up < <f64>EVAL_LIMIT && up > <f64>-EVAL_LIMIT) {
      const u = <i32>up;
      const v = negamax(shallow, u - 1, u, ply, p, o, side, hashLo, hashHi, empties, known);
      if (stopped) return NO_CUT;
      if (v >= u) {
        cuts++;
        leaves++;
        return beta;
      }
    }
  }
  if (alpha > -EVAL_LIMIT) {
    const down = Math.floor((<f64>alpha - margin - intercept) / slope);
    if (down > <f64>-EVAL_LIMIT && down < <f64>EVAL_LIMIT) {
      const d = <i32>down;
      const v = negamax(shallow, d, d + 1, ply, p, o, side, hashLo, hashHi, empties, known);
      if (stopped) return NO_CUT;
      if (v <= d) {
        cuts++;
        leaves++;
        return alpha;
      }
    }
  }
  return NO_CUT;
}

/** Picks the best-scored remaining move into place i (search.ts's pickMove). */
// @ts-ignore: decorator
@inline
function pickMove(offset: i32, i: i32, n: i32): i32 {
  const at = offset + i;
  let bestAt = at;
  let bestScore = unchecked(SCORES[at]);
  for (let j = at + 1, end = offset + n; j < end; j++) {
    const s = unchecked(SCORES[j]);
    if (s > bestScore) {
      bestScore = s;
      bestAt = j;
    }
  }
  if (bestAt != at) {
    const m = unchecked(MOVES[at]);
    unchecked((MOVES[at] = MOVES[bestAt]));
    unchecked((MOVES[bestAt] = m));
    unchecked((SCORES[bestAt] = SCORES[at]));
    unchecked((SCORES[at] = bestScore));
  }
  return unchecked(MOVES[at]);
}

/**
 * negamax at depth 0 (its steps up to the evaluation, the same counters and stop check), without the call:
 * the children of a node at depth 1 are all searched this way.
 */
// @ts-ignore: decorator
@inline
function leaf(ply: i32, p: u64, o: u64, side: i32, empties: i32, known: u64, knownReplies: u64): i32 {
  unchecked((PV_LENGTH[ply] = ply));
  if ((<i32>nodes & checkMask) == 0 && !stopped && pollStop(<f64>nodes) != 0) stopped = true;
  if (stopped) return 0;
  const moves = known != UNKNOWN ? known : mobility(p, o);
  const replies = knownReplies != UNKNOWN ? knownReplies : mobility(o, p);
  if (moves == 0 && replies == 0) {
    const diff = count(p) - count(o);
    if (diff == 0) return 0;
    return diff > 0 ? WIN_SCORE - ply : -(WIN_SCORE - ply);
  }
  leaves++;
  const value = evaluate(ply * INSTANCES, side, empties, p, o, moves, replies);
  return value >= EVAL_LIMIT ? EVAL_LIMIT - 1 : value <= -EVAL_LIMIT ? -(EVAL_LIMIT - 1) : value;
}

/**
 * search.ts's negamax for the player p (side `side`) against o; hashLo/hashHi are the salted key halves;
 * the pattern block of this ply is at INDEX_STACK[ply * INSTANCES]; `known` is p's legal moves when the parent
 * computed them (else UNKNOWN).
 */
function negamax(depth: i32, alpha: i32, beta: i32, ply: i32, p: u64, o: u64, side: i32, hashLo: i32, hashHi: i32, empties: i32, known: u64): i32 {
  unchecked((PV_LENGTH[ply] = ply));
  if ((<i32>nodes & checkMask) == 0 && !stopped && pollStop(<f64>nodes) != 0) stopped = true;
  if (stopped) return 0;

  const moves = known != UNKNOWN ? known : mobility(p, o);
  const opponentMoves = moves == 0 ? mobility(o, p) : UNKNOWN;
  if (moves == 0 && opponentMoves == 0) {
    const diff = count(p) - count(o);
    if (diff == 0) return 0;
    return diff > 0 ? WIN_SCORE - ply : -(WIN_SCORE - ply);
  }
  if (depth <= 0 || ply >= MAX_PLY - 1) {
    leaves++;
    const value = evaluate(ply * INSTANCES, side, empties, p, o, moves, mobility(o, p));
    return value >= EVAL_LIMIT ? EVAL_LIMIT - 1 : value <= -EVAL_LIMIT ? -(EVAL_LIMIT - 1) : value;
  }

  const matedScore = -(WIN_SCORE - ply);
  if (alpha < matedScore) alpha = matedScore;
  const mateScore = WIN_SCORE - ply - 1;
  if (beta > mateScore) beta = mateScore;
  if (alpha >= beta) return alpha;

  const alphaOrig = alpha;
  // No table cutoff at a PV node, as search.ts: it would end the principal variation there.
  const pvNode = beta - alpha > 1;
  let ttMove = -1;
  if (tableAt != 0 ? probeTable(hashLo, hashHi, ply) : ttProbe(hashLo, hashHi, ply) != 0) {
    ttMove = unchecked(HIT[0]);
    const ttScore = unchecked(HIT[1]);
    const bound = unchecked(HIT[3]);
    if (!pvNode && (unchecked(HIT[2]) >= depth || (isProven(ttScore) && bound == BOUND_EXACT))) {
      if (bound == BOUND_EXACT || (bound == BOUND_LOWER && ttScore >= beta) || (bound == BOUND_UPPER && ttScore <= alpha)) {
        if (unchecked(HIT[4]) == 0) leaves++;
        return ttScore;
      }
    }
  }

  if (!pvNode && depth >= 2) {
    const cut = probCut(depth, alpha, beta, ply, p, o, side, hashLo, hashHi, empties, moves);
    if (stopped) return 0;
    if (cut != NO_CUT) return cut;
  }

  // Moves in square order (generateMoves), or the pass; scored as search.ts's scoreMoves.
  const offset = ply * MOVES_PER_PLY;
  let n = 0;
  const killer1 = unchecked(KILLERS[ply * 2]);
  const killer2 = unchecked(KILLERS[ply * 2 + 1]);
  const historyBase = side * MOVE_SPACE;
  // Moves listed and scored as search.ts's scoreMoves, the hints (flips and reply mobility, the costly part)
  // computed only when the search reaches the first move without the table's or a killer's bonus: those
  // bonuses exceed every hinted score, so they are picked first whatever the hints, and a cutoff by one of
  // them needs no hint. The history term is read now, as scoreMoves reads it, before the subtrees change it.
  let special = 0;
  if (moves == 0) {
    unchecked((MOVES[offset] = PASS_MOVE));
    let s: i32;
    if (PASS_MOVE == ttMove) s = TT_MOVE_BONUS;
    else if (PASS_MOVE == killer1) s = KILLER_BONUS_1;
    else if (PASS_MOVE == killer2) s = KILLER_BONUS_2;
    else s = unchecked(HISTORY[historyBase + PASS_MOVE]);
    unchecked((SCORES[offset] = s));
    n = 1;
    special = 1;
  } else {
    let m = moves;
    let i = offset;
    while (m != 0) {
      const move = <i32>ctz(m);
      m &= m - 1;
      unchecked((MOVES[i] = move));
      let s: i32;
      if (move == ttMove) s = TT_MOVE_BONUS;
      else if (move == killer1) s = KILLER_BONUS_1;
      else if (move == killer2) s = KILLER_BONUS_2;
      else s = 0;
      if (s != 0) {
        unchecked((REPLIES[offset + move] = UNKNOWN));
        special++;
      } else {
        s = unchecked(HISTORY[historyBase + move]);
      }
      unchecked((SCORES[i] = s));
      i++;
    }
    n = i - offset;
  }
  const hlStart = leaves;

  const at = ply * INSTANCES;
  let best = -INFINITE_SCORE;
  let bestMove = -1;
  for (let i = 0; i < n; i++) {
    if (i == special) {
      // The bonus moves are searched (they took places 0..special - 1): the hints of the others now.
      for (let j = offset + i, end = offset + n; j < end; j++) {
        unchecked((SCORES[j] += moveOrderScore(unchecked(MOVES[j]), p, o, offset + unchecked(MOVES[j])) * HINT_WEIGHT));
      }
    }
    const move = pickMove(offset, i, n);
    // makeMove: the child's boards (its player first), key, empties and pattern block.
    let cp: u64;
    let co: u64;
    let childLo = hashLo ^ sideLo;
    let childHi = hashHi ^ sideHi;
    let childEmpties = empties;
    let childMoves: u64;
    if (move == PASS_MOVE) {
      cp = o;
      co = p;
      childMoves = opponentMoves;
      copyBlock(at);
    } else {
      childMoves = unchecked(REPLIES[offset + move]);
      const f = childMoves != UNKNOWN ? unchecked(FLIPS[offset + move]) : flips(move, p, o);
      cp = o ^ f;
      co = p | f | bit(move);
      // A child at depth 0 is evaluated (or ended) before any table use: its key is not needed.
      if (depth > 1) {
        childLo ^= unchecked(PLACE_LO[side * 64 + move]);
        childHi ^= unchecked(PLACE_HI[side * 64 + move]);
        let x = f;
        while (x != 0) {
          const sq = <i32>ctz(x);
          x &= x - 1;
          childLo ^= unchecked(FLIP_LO[sq]);
          childHi ^= unchecked(FLIP_HI[sq]);
        }
      }
      childEmpties--;
      updateIndices(at, side, move, f);
    }
    nodes++;
    const childSide = side ^ 1;
    let score: i32;
    if (depth == 1) {
      // Children at depth 0 (no reduction below depth 3): the null-window search and the PV re-search as below.
      const childReplies = childMoves != UNKNOWN && move != PASS_MOVE ? unchecked(OWN_AFTER[offset + move]) : UNKNOWN;
      score = -leaf(ply + 1, cp, co, childSide, childEmpties, childMoves, childReplies);
      if (i != 0 && score > alpha && score < beta && pvNode && !stopped) {
        score = -leaf(ply + 1, cp, co, childSide, childEmpties, childMoves, childReplies);
      }
    } else if (i == 0) {
      score = -negamax(depth - 1, -beta, -alpha, ply + 1, cp, co, childSide, childLo, childHi, childEmpties, childMoves);
    } else {
      const reduction = depth >= 3 && i >= 3 && unchecked(SCORES[offset + i]) < TACTICAL_ORDER_SCORE ? (i >= 8 && depth >= 5 ? 2 : 1) : 0;
      score = -negamax(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, cp, co, childSide, childLo, childHi, childEmpties, childMoves);
      if (score > alpha && reduction > 0 && !stopped) {
        score = -negamax(depth - 1, -alpha - 1, -alpha, ply + 1, cp, co, childSide, childLo, childHi, childEmpties, childMoves);
      }
      if (score > alpha && score < beta && pvNode && !stopped) {
        score = -negamax(depth - 1, -beta, -alpha, ply + 1, cp, co, childSide, childLo, childHi, childEmpties, childMoves);
      }
    }
    if (stopped) return 0;
    if (score > best) {
      best = score;
      bestMove = move;
      if (score > alpha) {
        alpha = score;
        updatePv(ply, move);
        if (score >= beta) {
          onCutoff(move, ply, depth, historyBase, ttMove);
          break;
        }
      }
    }
  }

  const bound = best >= beta ? BOUND_LOWER : best > alphaOrig ? BOUND_EXACT : BOUND_UPPER;
  if (tableAt != 0) storeTable(hashLo, hashHi, depth, bound, best, ply, bestMove, leaves == hlStart ? 1 : 0);
  else ttStore(hashLo, hashHi, depth, bound, best, ply, bestMove, leaves == hlStart ? 1 : 0);
  return best;
}

/**
 * negamax(depth, alpha, beta, ply) of the position given: its player's and opponent's discs as halves, side
 * to move, salted key, empties; its pattern block already at INDEX_STACK[ply * INSTANCES]. The node count
 * goes on from `nodesBefore`; the leaves and ProbCut counters start at 0 (read them after the call).
 */
export function search(
  depth: i32,
  alpha: i32,
  beta: i32,
  ply: i32,
  pl: i32,
  ph: i32,
  ol: i32,
  oh: i32,
  side: i32,
  hashLo: i32,
  hashHi: i32,
  empties: i32,
  nodesBefore: f64,
  mask: i32,
  probCutConfidence: f64,
  tableAge: i32,
): i32 {
  age = tableAge;
  nodes = <i64>nodesBefore;
  checkMask = mask;
  confidence = probCutConfidence;
  leaves = 0;
  cuts = 0;
  stopped = false;
  return negamax(depth, alpha, beta, ply, board(pl, ph), board(ol, oh), side, hashLo, hashHi, empties, UNKNOWN);
}
