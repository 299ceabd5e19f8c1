/**
 * AssemblyScript kernel of the Othello midgame search (compiled by `npm run build` to
 * dist/src/games/othello/search.wasm; loaded by ../search-kernel.ts). One call searches a whole subtree:
 * it is src/search/search.ts's negamax, step for step, on u64 boards with the pattern evaluation inside
 * (pattern-eval.ts evaluateIndexed, indices kept as position.ts keeps them): the same principal-variation
 * search, transposition-table use, mate-distance pruning, Multi-ProbCut, move ordering (TT move,
 * killers, history, position.ts's moveOrderScore), late-move reductions and node count, so the node
 * counts, scores and moves are those of the TypeScript path (tests and the bench's signatures check it).
 *
 * The host keeps what the search shares: the transposition table is called through imports (it may be a
 * table shared by Lazy SMP threads), the stop check too (every checkMask + 1 nodes, as the TypeScript search
 * does); the killer, history and PV tables live here and the host's search reads them as its own.
 * Not tsc input (tsconfig excludes this folder): `i32`, `u64`, `unchecked`, `popcnt` are AssemblyScript's.
 */
import { bit, board, flips } from './bitboard';

// @ts-ignore: decorator
@external('env', 'ttProbe')
declare function ttProbe(lo: i32, hi: i32, ply: i32): i32;
// @ts-ignore: decorator
@external('env', 'ttStore')
declare function ttStore(lo: i32, hi: i32, depth: i32, bound: i32, score: i32, ply: i32, move: i32, exact: i32): void;
// @ts-ignore: decorator
@external('env', 'pollStop')
declare function pollStop(nodes: f64): i32;

// src/search/score.ts and search.ts.
const WIN_SCORE: i32 = 1000000;
const MAX_PLY: i32 = 256;
const PROVEN_THRESHOLD: i32 = WIN_SCORE - 10000;
const EVAL_LIMIT: i32 = 500000;
const INFINITE_SCORE: i32 = WIN_SCORE + 1;
const BOUND_UPPER: i32 = 1;
const BOUND_LOWER: i32 = 2;
const BOUND_EXACT: i32 = 3;
const TT_MOVE_BONUS: i32 = 1 << 30;
const NO_CUT: i32 = -(1 << 30);
const KILLER_BONUS_1: i32 = 1 << 29;
const KILLER_BONUS_2: i32 = (1 << 29) - 1;
const HISTORY_LIMIT: i32 = 1 << 20;
const HINT_WEIGHT: i32 = 4;
const TACTICAL_ORDER_SCORE: i32 = 500000 * HINT_WEIGHT;
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
/** Per listed move, when its ordering hint computed them: its flips and the reply's legal moves (UNKNOWN otherwise). */
const FLIPS = new StaticArray<u64>((MAX_PLY + 1) * MOVES_PER_PLY);
const REPLIES = new StaticArray<u64>((MAX_PLY + 1) * MOVES_PER_PLY);
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
function mobility(p: u64, o: u64): u64 {
  const inner = o & 0x7e7e7e7e7e7e7e7e;
  const moves = movesAlong(p, inner, 1) | movesAlong(p, o, 8) | movesAlong(p, inner, 7) | movesAlong(p, inner, 9);
  return moves & ~(p | o);
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

/** pattern-eval.ts's evaluateIndexed: the same sums in the same order, so the same value to the last bit. */
function evaluate(at: i32, side: i32, empties: i32, p: u64, o: u64, moves: u64): i32 {
  const stage = unchecked(EVAL_STAGE[empties]);
  const base = tables + ((<usize>(stage * patternBlock)) << 1);
  let sum: i32 = 0;
  if (side == 0) {
    for (let i = 0; i < INSTANCES; i++) {
      const word = unchecked(INDEX_STACK[at + i]);
      sum += <i32>load<i16>(base + ((<usize>(unchecked(INSTANCE_OFFSET[i]) + (word & INDEX_MASK))) << 1));
    }
  } else {
    for (let i = 0; i < INSTANCES; i++) {
      const word = unchecked(INDEX_STACK[at + i]);
      sum += <i32>load<i16>(base + ((<usize>(unchecked(INSTANCE_OFFSET[i]) + 3 * (word >>> INDEX_BITS) - (word & INDEX_MASK))) << 1));
    }
  }
  const empty = ~(p | o);
  const replies = mobility(o, p);
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

/** position.ts's updateIndices: the child's block is the parent's plus the placed square and the flips. */
function updateIndices(from: i32, side: i32, move: i32, flipped: u64): void {
  const to = from + INSTANCES;
  copyBlock(from);
  const placed = (side == 0 ? 1 : 2) + (1 << INDEX_BITS);
  for (let k = unchecked(SLOT_START[move]), end = unchecked(SLOT_START[move + 1]); k < end; k++) {
    const slot = to + load<i32>(slots + ((<usize>k) << 2));
    unchecked((INDEX_STACK[slot] += placed * load<i32>(digits + ((<usize>k) << 2))));
  }
  const flip = side == 0 ? -1 : 1;
  let f = flipped;
  while (f != 0) {
    const sq = <i32>ctz(f);
    f &= f - 1;
    for (let k = unchecked(SLOT_START[sq]), end = unchecked(SLOT_START[sq + 1]); k < end; k++) {
      const slot = to + load<i32>(slots + ((<usize>k) << 2));
      unchecked((INDEX_STACK[slot] += flip * load<i32>(digits + ((<usize>k) << 2))));
    }
  }
}

/**
 * position.ts's moveOrderScore: fewest replies (corners twice) first, then the square's quality. The flips
 * and the replies are kept at `at` for making the move.
 */
function moveOrderScore(move: i32, p: u64, o: u64, at: i32): i32 {
  if (move == PASS_MOVE) return 0;
  const f = flips(move, p, o);
  const r = mobility(o ^ f, p | f | bit(move));
  unchecked((FLIPS[at] = f));
  unchecked((REPLIES[at] = r));
  const replies = count(r) + count(r & CORNERS);
  return unchecked(SQUARE_ORDER[move]) - replies * 64;
}

// @ts-ignore: decorator
@inline
function isProven(score: i32): bool {
  return score >= PROVEN_THRESHOLD || score <= -PROVEN_THRESHOLD;
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
  for (let slot = base; slot <= base + 16; slot += 16) {
    const meta = load<i32>(slot, 12);
    if (meta == 0) continue;
    const move = load<i32>(slot, 4);
    const score = load<i32>(slot, 8);
    if ((load<i32>(slot) ^ move ^ score ^ meta) != hashHi) continue;
    unchecked((HIT[0] = move));
    unchecked((HIT[1] = score >= PROVEN_THRESHOLD ? score - ply : score <= -PROVEN_THRESHOLD ? score + ply : score));
    unchecked((HIT[2] = meta & 255));
    unchecked((HIT[3] = (meta >>> 8) & 3));
    unchecked((HIT[4] = (meta >>> 10) & 1));
    return true;
  }
  return false;
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
    const f = unchecked(FLIPS[at]);
    unchecked((FLIPS[at] = FLIPS[bestAt]));
    unchecked((FLIPS[bestAt] = f));
    const r = unchecked(REPLIES[at]);
    unchecked((REPLIES[at] = REPLIES[bestAt]));
    unchecked((REPLIES[bestAt] = r));
  }
  return unchecked(MOVES[at]);
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
    const value = evaluate(ply * INSTANCES, side, empties, p, o, moves);
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
  if (moves == 0) {
    unchecked((MOVES[offset] = PASS_MOVE));
    n = 1;
  } else {
    let m = moves;
    while (m != 0) {
      unchecked((MOVES[offset + n] = <i32>ctz(m)));
      m &= m - 1;
      n++;
    }
  }
  for (let i = offset, end = offset + n; i < end; i++) {
    const move = unchecked(MOVES[i]);
    unchecked((REPLIES[i] = UNKNOWN));
    let s: i32;
    if (move == ttMove) s = TT_MOVE_BONUS;
    else if (move == killer1) s = KILLER_BONUS_1;
    else if (move == killer2) s = KILLER_BONUS_2;
    else s = unchecked(HISTORY[historyBase + move]) + moveOrderScore(move, p, o, i) * HINT_WEIGHT;
    unchecked((SCORES[i] = s));
  }
  const hlStart = leaves;

  const at = ply * INSTANCES;
  let best = -INFINITE_SCORE;
  let bestMove = -1;
  for (let i = 0; i < n; i++) {
    const move = pickMove(offset, i, n);
    // makeMove: the child's boards (its player first), key, empties and pattern block.
    let cp: u64;
    let co: u64;
    let childLo = hashLo ^ sideLo;
    let childHi = hashHi ^ sideHi;
    let childEmpties = empties;
    let childMoves = unchecked(REPLIES[offset + i]);
    if (move == PASS_MOVE) {
      cp = o;
      co = p;
      childMoves = opponentMoves;
      copyBlock(at);
    } else {
      const f = childMoves != UNKNOWN ? unchecked(FLIPS[offset + i]) : flips(move, p, o);
      cp = o ^ f;
      co = p | f | bit(move);
      childLo ^= unchecked(PLACE_LO[side * 64 + move]);
      childHi ^= unchecked(PLACE_HI[side * 64 + move]);
      let x = f;
      while (x != 0) {
        const sq = <i32>ctz(x);
        x &= x - 1;
        childLo ^= unchecked(FLIP_LO[sq]);
        childHi ^= unchecked(FLIP_HI[sq]);
      }
      childEmpties--;
      updateIndices(at, side, move, f);
    }
    nodes++;
    const childSide = side ^ 1;
    let score: i32;
    if (i == 0) {
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
