/**
 * AssemblyScript kernel of the K = 5 search below the root (loaded by ../search-kernel.ts; one call searches a
 * whole subtree): src/search/search.ts's negamax, step for step, with the pattern path inside it: position.ts's
 * make and unmake (hash, candidate cells, the board's place and remove of patterns.ts in this module),
 * pattern-search.ts's evaluation, move lists (forced replies, defences, the policy's cut) and ordering hints. The
 * same moves in the same order, so the node counts, scores and moves are those of the TypeScript path (the tests
 * and the bench's signatures check it).
 *
 * It lives in the board's own memory (laid out after the board's arrays by searchLayout): the position's candidate
 * arrays are views of it, so the TypeScript search and this one keep one copy. The transposition table and the
 * stop check are the host's, through imports. The host calls it only where no node of the subtree reaches the last
 * empties, whose move lists are the window engine's (search-kernel.ts covers()).
 * Not tsc input (tsconfig excludes this folder): `i32`, `u8`, `load`, `store` are AssemblyScript's.
 */
import {
  CELLS,
  CODES,
  COL_OF,
  END,
  KEYS,
  ROW_OF,
  VALUE_SUM,
  cellCount,
  emptyClassAt,
  flagsOf,
  lineCells,
  place,
  leavePreviewSets,
  previewFives,
  previewPlace,
  previewValue,
  previewWin4s,
  remove,
  removesAll,
  setCount,
  setItem,
} from './patterns';
import {
  BOUND_EXACT,
  BOUND_LOWER,
  BOUND_UPPER,
  DRAW_SCORE,
  EVAL_LIMIT,
  HINT_WEIGHT,
  HISTORY_LIMIT,
  INFINITE_SCORE,
  KILLER_BONUS_1,
  KILLER_BONUS_2,
  MAX_PLY,
  TACTICAL_HINT,
  TACTICAL_ORDER_SCORE,
  TT_MOVE_BONUS,
  WIN_SCORE,
  isProven,
  pickBest,
  pollStop,
  ttProbe,
  ttStore,
} from '../../../search/assembly/host';

// search.ts's own (the shared ones: ../../../search/assembly/host.ts).
const NO_EVAL: i32 = -0x7fffffff;
const FUTILITY_EVAL_CAP: i32 = 100000;
const EXTENSION_MAX_PLY: i32 = 40;
const MOVE_COUNT_DEPTHS: i32 = 16;
// pattern-tables.ts, pattern-search.ts, moves.ts.
const F_FIVE: i32 = 1;
const F_WIN4: i32 = 2;
const F_FOUR: i32 = 4;
const F_THREE: i32 = 8;
const C_BLOCK4: i32 = 6;
const DECIDED_EVAL: i32 = 300000;
const WIN4_DISCOUNT: i32 = 50000;
const HEURISTIC_CAP: i32 = 200000;
const WIN_HINT: i32 = TACTICAL_HINT + 400000;
const BLOCK_HINT: i32 = TACTICAL_HINT + 300000;
const WIN4_HINT: i32 = TACTICAL_HINT + 200000;
const FOUR_HINT: i32 = TACTICAL_HINT + 100000;
const STOP_THREE_HINT: i32 = TACTICAL_HINT + 50000;
const THREE_HINT: i32 = TACTICAL_HINT;
const QUIET_CAP: i32 = 49999;
const MOVES_AT_PLY_1: i32 = 24;
const MOVES_DEEPER: i32 = 12;
const FULL_WIDTH_EMPTIES: i32 = 20;
const CELL_KEYS: i32 = 6561;
const POLICY_LINE_CODES: i32 = 65536;
const DISTANCES: i32 = 128;
/** Neighbours a cell's candidate ring may have (RING_2: 24). */
const RING_MAX: i32 = 24;

// Byte offsets of the search's arrays (set by searchLayout()).
let POLICY_OWN: i32 = 0;
let POLICY_ENEMY: i32 = 0;
let POLICY_LINE: i32 = 0;
let LAST_OPPONENT: i32 = 0;
let LAST_OWN: i32 = 0;
let MOVE_COUNTS: i32 = 0;
let LOG_REDUCTIONS: i32 = 0;
let ZOBRIST: i32 = 0;
let NEIGHBOUR_START: i32 = 0;
let NEIGHBOUR_CELLS: i32 = 0;
let NEIGHBOUR_RING1: i32 = 0;
let NEAR: i32 = 0;
let NEAR_RING1: i32 = 0;
let CANDIDATES: i32 = 0;
let CANDIDATE_INDEX: i32 = 0;
let PLAYED: i32 = 0;
let COMPLETED: i32 = 0;
let MOVES: i32 = 0;
let SCORES: i32 = 0;
let KILLERS: i32 = 0;
let HISTORY: i32 = 0;
let PV_TABLE: i32 = 0;
let PV_LENGTH: i32 = 0;
let EVAL_AT: i32 = 0;
let HIT: i32 = 0;
let HINTS: i32 = 0;
let SCRATCH: i32 = 0;
let STAMP: i32 = 0;
let SEARCH_END: i32 = 0;

// Settings (setSettings) and the position and counters of the current call.
let selective: bool = false;
let futilityMargin: i32 = 0;
let futilityDepth: i32 = 0;
let relief: i32 = -1;
let tempoQuarters: i32 = 4;
let policyFar: i32 = 0;
let sideKeyLo: i32 = 0;
let sideKeyHi: i32 = 0;
let side: i32 = 0;
let hashLo: i32 = 0;
let hashHi: i32 = 0;
let keyLo: i32 = 0;
let keyHi: i32 = 0;
let stones: i32 = 0;
let candidateCount: i32 = 0;
let rootOffset: i32 = 0;
let checkMask: i32 = 127;
let nodes: i64 = 0;
let leaves: i32 = 0;
let stopped: bool = false;
let truncated: bool = false;
/** The last list generate() made came with each move's hint beside it (in SCORES), which scoreMoves then reuses. */
let hinted: bool = false;
let stampMark: i32 = 0;

@inline function align8(x: i32): i32 {
  return (x + 7) & ~7;
}

/** Lays the search's arrays out after the board's (layout() first); returns the bytes the memory needs. */
export function searchLayout(): i32 {
  const count = cellCount;
  POLICY_OWN = align8(END);
  POLICY_ENEMY = POLICY_OWN + CELL_KEYS * 4;
  POLICY_LINE = POLICY_ENEMY + CELL_KEYS * 4;
  LAST_OPPONENT = POLICY_LINE + 2 * POLICY_LINE_CODES * 2;
  LAST_OWN = LAST_OPPONENT + DISTANCES * 4;
  MOVE_COUNTS = LAST_OWN + DISTANCES * 4;
  LOG_REDUCTIONS = MOVE_COUNTS + MOVE_COUNT_DEPTHS * 4;
  ZOBRIST = LOG_REDUCTIONS + 64 * 64 * 4;
  NEIGHBOUR_START = ZOBRIST + count * 4 * 4;
  NEIGHBOUR_CELLS = NEIGHBOUR_START + (count + 1) * 4;
  NEIGHBOUR_RING1 = NEIGHBOUR_CELLS + count * RING_MAX * 4;
  NEAR = align8(NEIGHBOUR_RING1 + count * RING_MAX);
  NEAR_RING1 = NEAR + count * 2;
  CANDIDATES = align8(NEAR_RING1 + count * 2);
  CANDIDATE_INDEX = CANDIDATES + count * 4;
  PLAYED = CANDIDATE_INDEX + count * 4;
  COMPLETED = PLAYED + (MAX_PLY + 4) * 4;
  MOVES = align8(COMPLETED + MAX_PLY + 4);
  SCORES = MOVES + (MAX_PLY + 1) * count * 4;
  KILLERS = SCORES + (MAX_PLY + 1) * count * 4;
  HISTORY = KILLERS + MAX_PLY * 2 * 4;
  PV_TABLE = HISTORY + 2 * count * 4;
  PV_LENGTH = PV_TABLE + MAX_PLY * MAX_PLY * 4;
  EVAL_AT = PV_LENGTH + (MAX_PLY + 1) * 4;
  HIT = EVAL_AT + (MAX_PLY + 2) * 4;
  HINTS = HIT + 8 * 4;
  SCRATCH = HINTS + count * 4;
  STAMP = SCRATCH + 2 * count * 4;
  SEARCH_END = STAMP + count * 4;
  return SEARCH_END;
}

/** Where the search's array `which` starts (the order of search-kernel.ts's S_* names). */
export function searchOffsetOf(which: i32): i32 {
  switch (which) {
    case 0: return POLICY_OWN;
    case 1: return POLICY_ENEMY;
    case 2: return POLICY_LINE;
    case 3: return LAST_OPPONENT;
    case 4: return LAST_OWN;
    case 5: return MOVE_COUNTS;
    case 6: return LOG_REDUCTIONS;
    case 7: return ZOBRIST;
    case 8: return NEIGHBOUR_START;
    case 9: return NEIGHBOUR_CELLS;
    case 10: return NEIGHBOUR_RING1;
    case 11: return NEAR;
    case 12: return NEAR_RING1;
    case 13: return CANDIDATES;
    case 14: return CANDIDATE_INDEX;
    case 15: return KILLERS;
    case 16: return HISTORY;
    case 17: return PV_TABLE;
    case 18: return PV_LENGTH;
    case 19: return HIT;
    case 20: return EVAL_AT;
    default: return SEARCH_END;
  }
}

/** The host's settings: the selective search's (on, margin, depth, relief), the evaluation's tempo, the policy's far term, the side key. */
export function setSettings(on: i32, margin: i32, depth: i32, reductionRelief: i32, tempo: i32, far: i32, keySideLo: i32, keySideHi: i32): void {
  selective = on != 0;
  futilityMargin = margin;
  futilityDepth = depth;
  relief = on != 0 ? reductionRelief : -1;
  tempoQuarters = tempo;
  policyFar = far;
  sideKeyLo = keySideLo;
  sideKeyHi = keySideHi;
}

// ---- position.ts: make and unmake ----

function addCandidate(cell: i32): void {
  store<i32>(CANDIDATE_INDEX + (cell << 2), candidateCount);
  store<i32>(CANDIDATES + (candidateCount << 2), cell);
  candidateCount++;
}

function removeCandidate(cell: i32): void {
  const at = load<i32>(CANDIDATE_INDEX + (cell << 2));
  if (at < 0) return;
  candidateCount--;
  const last = load<i32>(CANDIDATES + (candidateCount << 2));
  store<i32>(CANDIDATES + (at << 2), last);
  store<i32>(CANDIDATE_INDEX + (last << 2), at);
  store<i32>(CANDIDATE_INDEX + (cell << 2), -1);
}

/** The position a call starts from (the host's): side to move, raw hash, stones, candidate count, side key. */
export function enterPosition(toMove: i32, lo: i32, hi: i32, stoneCount: i32, candidates: i32, keySideLo: i32, keySideHi: i32): void {
  side = toMove;
  hashLo = lo;
  hashHi = hi;
  stones = stoneCount;
  candidateCount = candidates;
  sideKeyLo = keySideLo;
  sideKeyHi = keySideHi;
}

@inline export function sideToMove(): i32 {
  return side;
}

@inline export function zobristLo(): i32 {
  return hashLo;
}

@inline export function zobristHi(): i32 {
  return hashHi;
}

/** Where the search's arrays end (the VCT's start after them). */
export function searchEnd(): i32 {
  return SEARCH_END;
}

/** position.ts makeMove at search ply `ply`: the stone, the hash, the candidates, whether it made a five. */
export function makeMove(move: i32, ply: i32): void {
  const s = side;
  const five = (flagsOf(move, s) & F_FIVE) != 0;
  stones++;
  place(move, s);
  const z = ZOBRIST + ((s * cellCount + move) << 3);
  hashLo ^= load<i32>(z);
  hashHi ^= load<i32>(z + 4);
  removeCandidate(move);
  for (let i = load<i32>(NEIGHBOUR_START + (move << 2)), end = load<i32>(NEIGHBOUR_START + ((move + 1) << 2)); i < end; i++) {
    const nb = load<i32>(NEIGHBOUR_CELLS + (i << 2));
    const ringAt = NEAR_RING1 + (nb << 1);
    store<u16>(ringAt, <u16>(<i32>load<u16>(ringAt) + <i32>load<u8>(NEIGHBOUR_RING1 + i)));
    const nearAt = NEAR + (nb << 1);
    const near = <i32>load<u16>(nearAt);
    store<u16>(nearAt, <u16>(near + 1));
    if (near == 0 && load<u8>(CELLS + nb) == 0) addCandidate(nb);
  }
  store<u8>(COMPLETED + ply + 2, five ? 1 : 0);
  store<i32>(PLAYED + ((ply + 2) << 2), move);
  side = s ^ 1;
  hashLo ^= sideKeyLo;
  hashHi ^= sideKeyHi;
}

export function unmakeMove(move: i32): void {
  side ^= 1;
  hashLo ^= sideKeyLo;
  hashHi ^= sideKeyHi;
  const s = side;
  stones--;
  remove(move, s);
  const z = ZOBRIST + ((s * cellCount + move) << 3);
  hashLo ^= load<i32>(z);
  hashHi ^= load<i32>(z + 4);
  for (let i = load<i32>(NEIGHBOUR_START + (move << 2)), end = load<i32>(NEIGHBOUR_START + ((move + 1) << 2)); i < end; i++) {
    const nb = load<i32>(NEIGHBOUR_CELLS + (i << 2));
    const ringAt = NEAR_RING1 + (nb << 1);
    store<u16>(ringAt, <u16>(<i32>load<u16>(ringAt) - <i32>load<u8>(NEIGHBOUR_RING1 + i)));
    const nearAt = NEAR + (nb << 1);
    const near = <i32>load<u16>(nearAt) - 1;
    store<u16>(nearAt, <u16>near);
    if (near == 0 && load<i32>(CANDIDATE_INDEX + (nb << 2)) >= 0) removeCandidate(nb);
  }
  if (load<u16>(NEAR + (move << 1)) > 0) addCandidate(move);
}

// ---- pattern-search.ts: evaluation, hints, move lists ----

/** pattern-search.ts's evaluation from the mover's counts of five and winning-four cells, the opponent's fives and the value sums. */
@inline function evaluation(ownFives: i32, ownWin4s: i32, enemyFives: i32, ownSum: i32, enemySum: i32): i32 {
  if (ownFives > 0) return DECIDED_EVAL;
  if (enemyFives >= 2) return -DECIDED_EVAL;
  if (enemyFives == 0 && ownWin4s > 0) return DECIDED_EVAL - WIN4_DISCOUNT;
  const value = ((ownSum * tempoQuarters) >> 2) - enemySum;
  return value > HEURISTIC_CAP ? HEURISTIC_CAP : value < -HEURISTIC_CAP ? -HEURISTIC_CAP : value;
}

function evaluate(): i32 {
  const s = side;
  const o = 1 - s;
  return evaluation(setCount(s, 0), setCount(s, 1), setCount(o, 0), load<i32>(VALUE_SUM + (s << 2)), load<i32>(VALUE_SUM + (o << 2)));
}

function quietForPruning(): bool {
  if (cellCount - stones <= FULL_WIDTH_EMPTIES) return false;
  const o = 1 - side;
  return setCount(o, 0) == 0 && setCount(o, 1) == 0 && setCount(side, 0) == 0;
}

@inline function chebyshev(a: i32, b: i32): i32 {
  const dr = abs(<i32>load<u8>(ROW_OF + a) - <i32>load<u8>(ROW_OF + b));
  const dc = abs(<i32>load<u8>(COL_OF + a) - <i32>load<u8>(COL_OF + b));
  return dr > dc ? dr : dc;
}

@inline function lineTerm(side16: i32, code: i32): i32 {
  return <i32>load<i16>(POLICY_LINE + ((side16 | ((code >> 2) & 0xffff)) << 1));
}

/** pattern-search.ts hintAt: the node's last moves (-1 where none) passed as cells. */
function hintAt(move: i32, opponentMove: i32, ownMove: i32): i32 {
  const s = side;
  const o = 1 - s;
  const own = flagsOf(move, s);
  const enemy = flagsOf(move, o);
  if ((own & F_FIVE) != 0) return WIN_HINT;
  if ((enemy & F_FIVE) != 0) return BLOCK_HINT;
  const ownKey = <i32>load<u16>(KEYS + (move << 2) + (s << 1));
  const enemyKey = <i32>load<u16>(KEYS + (move << 2) + (o << 1));
  let quiet = load<i32>(POLICY_OWN + (ownKey << 2)) + load<i32>(POLICY_ENEMY + (enemyKey << 2));
  if (load<u16>(NEAR_RING1 + (move << 1)) == 0) quiet += policyFar;
  if (opponentMove >= 0) quiet += load<i32>(LAST_OPPONENT + (chebyshev(opponentMove, move) << 2));
  if (ownMove >= 0) quiet += load<i32>(LAST_OWN + (chebyshev(ownMove, move) << 2));
  const at = CODES + (move << 4);
  const side16 = s << 16;
  quiet += lineTerm(side16, load<i32>(at)) + lineTerm(side16, load<i32>(at + 4)) + lineTerm(side16, load<i32>(at + 8)) + lineTerm(side16, load<i32>(at + 12));
  if (quiet < 0) quiet = 0;
  if (quiet > QUIET_CAP) quiet = QUIET_CAP;
  if ((own & F_WIN4) != 0) return WIN4_HINT + quiet;
  if ((own & F_FOUR) != 0) return FOUR_HINT + quiet;
  if ((enemy & F_WIN4) != 0) return STOP_THREE_HINT + quiet;
  if ((own & F_THREE) != 0) return THREE_HINT + quiet;
  return quiet;
}

@inline function opponentMoveAt(ply: i32): i32 {
  return load<i32>(PLAYED + ((ply + 1) << 2));
}

@inline function ownMoveAt(ply: i32): i32 {
  return load<i32>(PLAYED + (ply << 2));
}

/** pattern-search.ts generatePatternMoves below the root, into MOVES from `offset`; sets `truncated`. */
function generate(offset: i32, ply: i32): i32 {
  truncated = false;
  hinted = false;
  const s = side;
  const o = 1 - s;
  const moves = MOVES + (offset << 2);
  if (setCount(s, 0) > 0) {
    store<i32>(moves, setItem(s, 0, 0));
    return 1;
  }
  const enemyFives = setCount(o, 0);
  if (enemyFives > 0) {
    for (let i = 0; i < enemyFives; i++) store<i32>(moves + (i << 2), setItem(o, 0, i));
    return enemyFives;
  }
  if (setCount(o, 1) > 0) return defenceMoves(moves);
  const count = candidateCount;
  if (count == 0) {
    let all = 0;
    for (let cell = 0; cell < cellCount; cell++) if (load<u8>(CELLS + cell) == 0) store<i32>(moves + (all++ << 2), cell);
    return all;
  }
  const plyFromRoot = ply + rootOffset;
  const limit = plyFromRoot <= 0 ? count : plyFromRoot == 1 ? MOVES_AT_PLY_1 : MOVES_DEEPER;
  if (count <= limit) {
    memory.copy(moves, CANDIDATES, count << 2);
    return count;
  }
  // Every tactical move and the best quiet ones up to the limit.
  const opponentMove = opponentMoveAt(ply);
  const ownMove = ownMoveAt(ply);
  const hints = SCORES + (offset << 2);
  let kept = 0;
  let quiet = 0;
  for (let i = 0; i < count; i++) {
    const cell = load<i32>(CANDIDATES + (i << 2));
    const hint = hintAt(cell, opponentMove, ownMove);
    if (hint >= TACTICAL_HINT) {
      store<i32>(hints + (kept << 2), hint);
      store<i32>(moves + (kept++ << 2), cell);
    } else {
      store<i32>(SCRATCH + (quiet << 2), cell);
      store<i32>(HINTS + (quiet << 2), hint);
      quiet++;
    }
  }
  let i = 0;
  for (; i < quiet && kept < limit; i++) {
    const cell = pickBest(SCRATCH, HINTS, i, quiet);
    store<i32>(hints + (kept << 2), load<i32>(HINTS + (i << 2)));
    store<i32>(moves + (kept++ << 2), cell);
  }
  truncated = i < quiet;
  hinted = true;
  return kept;
}

/** pattern-search.ts defenceMoves: the mover's fours, then the cells after which the opponent has no winning four. */
function defenceMoves(moves: i32): i32 {
  const s = side;
  const o = 1 - s;
  const mark = ++stampMark;
  let count = 0;
  for (let i = 0, fours = setCount(s, 2); i < fours; i++) {
    const cell = setItem(s, 2, i);
    store<i32>(STAMP + (cell << 2), mark);
    store<i32>(moves + (count++ << 2), cell);
  }
  let tried = 0;
  const capacity = 2 * cellCount;
  for (let i = 0, threats = setCount(o, 1); i < threats; i++) {
    const w = setItem(o, 1, i);
    if (tried + 4 * 8 + 1 > capacity) break;
    store<i32>(SCRATCH + (tried++ << 2), w);
    for (let d = 0; d < 4; d++) {
      if (emptyClassAt(w, d, o) >= C_BLOCK4) tried = lineCells(w, d, 4, SCRATCH, tried);
    }
  }
  let defended = 0;
  for (let i = 0; i < tried; i++) {
    const cell = load<i32>(SCRATCH + (i << 2));
    if (load<i32>(STAMP + (cell << 2)) == mark) continue;
    store<i32>(STAMP + (cell << 2), mark);
    if (removesAll(cell, s, F_WIN4) != 0) {
      store<i32>(moves + (count++ << 2), cell);
      defended++;
    }
  }
  if (defended == 0) {
    for (let i = 0, threats = setCount(o, 1); i < threats; i++) {
      const w = setItem(o, 1, i);
      let found = false;
      for (let j = 0; j < count; j++) if (load<i32>(moves + (j << 2)) == w) found = true;
      if (!found) store<i32>(moves + (count++ << 2), w);
    }
  }
  return count;
}

// ---- search.ts: negamax ----

/** search.ts logReduction. */
function logReduction(depth: i32, i: i32, pvNode: bool, improving: bool, tactical: bool): i32 {
  if (depth < 2) return 0;
  let r = load<i32>(LOG_REDUCTIONS + (((depth > 63 ? 63 : depth) * 64 + (i >= 63 ? 63 : i + 1)) << 2));
  if (!improving && r > 1) r++;
  if (tactical) r -= relief;
  if (pvNode) r -= relief;
  if (r > depth - 2) r = depth - 2;
  return r > 0 ? r : 0;
}

function scoreMoves(offset: i32, count: i32, ttMove: i32, ply: i32): void {
  const killer1 = load<i32>(KILLERS + ((ply * 2) << 2));
  const killer2 = load<i32>(KILLERS + ((ply * 2 + 1) << 2));
  const historyBase = HISTORY + ((side * cellCount) << 2);
  const opponentMove = opponentMoveAt(ply);
  const ownMove = ownMoveAt(ply);
  const known = hinted;
  for (let i = offset, end = offset + count; i < end; i++) {
    const move = load<i32>(MOVES + (i << 2));
    let score: i32;
    if (move == ttMove) score = TT_MOVE_BONUS;
    else if (move == killer1) score = KILLER_BONUS_1;
    else if (move == killer2) score = KILLER_BONUS_2;
    else score = load<i32>(historyBase + (move << 2)) + (known ? load<i32>(SCORES + (i << 2)) : hintAt(move, opponentMove, ownMove)) * HINT_WEIGHT;
    store<i32>(SCORES + (i << 2), score);
  }
}

function onCutoff(move: i32, ply: i32, depth: i32, ttMove: i32): void {
  const k1 = KILLERS + ((ply * 2) << 2);
  if (move != ttMove && load<i32>(k1) != move) {
    store<i32>(k1 + 4, load<i32>(k1));
    store<i32>(k1, move);
  }
  const at = HISTORY + ((side * cellCount + move) << 2);
  const v = load<i32>(at) + depth * depth;
  if (v >= HISTORY_LIMIT) {
    for (let i = 0, end = 2 * cellCount; i < end; i++) {
      const h = HISTORY + (i << 2);
      store<i32>(h, load<i32>(h) >> 1);
    }
    store<i32>(at, v >> 1);
  } else {
    store<i32>(at, v);
  }
}

function updatePv(ply: i32, move: i32): void {
  const row = PV_TABLE + ((ply * MAX_PLY) << 2);
  const childRow = PV_TABLE + (((ply + 1) * MAX_PLY) << 2);
  store<i32>(row + (ply << 2), move);
  const childLength = load<i32>(PV_LENGTH + ((ply + 1) << 2));
  let length = ply + 1;
  for (let i = ply + 1; i < childLength; i++) store<i32>(row + (i << 2), load<i32>(childRow + (i << 2)));
  if (childLength > length) length = childLength;
  store<i32>(PV_LENGTH + (ply << 2), length);
}

@inline function evalAt(ply: i32): i32 {
  return load<i32>(EVAL_AT + (ply << 2));
}

/**
 * The candidate list as a make and an unmake of `move` leave it: the neighbours the make adds are removed again,
 * and the move, which the make took out (its place filled by the last cell), is appended: its place and the last
 * one's swap. The lists the search generates read this order, so the trees stay those of the TypeScript path.
 */
function leaveCandidates(move: i32): void {
  const at = load<i32>(CANDIDATE_INDEX + (move << 2));
  if (at < 0) return;
  const lastAt = candidateCount - 1;
  const last = load<i32>(CANDIDATES + (lastAt << 2));
  store<i32>(CANDIDATES + (at << 2), last);
  store<i32>(CANDIDATE_INDEX + (last << 2), at);
  store<i32>(CANDIDATES + (lastAt << 2), move);
  store<i32>(CANDIDATE_INDEX + (move << 2), lastAt);
}

/**
 * negamax at depth 0 of the child after `move` (at ply `childPly`), without making the move: the same steps up to
 * the evaluation (the PV length, the stop check, the five, the full board), the same counters, and evaluate() of the
 * child's board read from previewPlace(move), called first. A node at depth 1 searches its children this way.
 */
function leafAfter(move: i32, childPly: i32): i32 {
  store<i32>(PV_LENGTH + (childPly << 2), childPly);
  if ((nodes & <i64>checkMask) == 0 && !stopped && pollStop(<f64>nodes) != 0) stopped = true;
  if (stopped) return 0;
  const mover = side;
  if ((flagsOf(move, mover) & F_FIVE) != 0) return -(WIN_SCORE - childPly);
  if (stones + 1 == cellCount) return DRAW_SCORE;
  leaves++;
  // The child's side to move is the mover's opponent.
  const s = 1 - mover;
  const value = evaluation(
    setCount(s, 0) + previewFives(s),
    setCount(s, 1) + previewWin4s(s),
    setCount(mover, 0) + previewFives(mover),
    load<i32>(VALUE_SUM + (s << 2)) + previewValue(s),
    load<i32>(VALUE_SUM + (mover << 2)) + previewValue(mover),
  );
  return value >= EVAL_LIMIT ? EVAL_LIMIT - 1 : value <= -EVAL_LIMIT ? -(EVAL_LIMIT - 1) : value;
}

function negamax(depth: i32, alpha: i32, beta: i32, ply: i32, offset: i32): i32 {
  store<i32>(PV_LENGTH + (ply << 2), ply);
  if ((nodes & <i64>checkMask) == 0 && !stopped && pollStop(<f64>nodes) != 0) stopped = true;
  if (stopped) return 0;

  if (load<u8>(COMPLETED + ply + 1) != 0) return -(WIN_SCORE - ply);
  if (stones == cellCount) return DRAW_SCORE;
  if (depth <= 0 || ply >= MAX_PLY - 1) {
    leaves++;
    const value = evaluate();
    return value >= EVAL_LIMIT ? EVAL_LIMIT - 1 : value <= -EVAL_LIMIT ? -(EVAL_LIMIT - 1) : value;
  }
  // The window engine's lists take over in the last empties: the host never lets a subtree reach them.
  if (cellCount - stones <= FULL_WIDTH_EMPTIES) unreachable();

  const matedScore = -(WIN_SCORE - ply);
  if (alpha < matedScore) alpha = matedScore;
  const mateScore = WIN_SCORE - ply - 1;
  if (beta > mateScore) beta = mateScore;
  if (alpha >= beta) return alpha;

  const lo = hashLo ^ keyLo;
  const hi = hashHi ^ keyHi;
  const alphaOrig = alpha;
  const pvNode = beta - alpha > 1;
  let ttMove = -1;
  if (ttProbe(lo, hi, ply) != 0) {
    ttMove = load<i32>(HIT);
    const ttScore = load<i32>(HIT + 4);
    const ttDepth = load<i32>(HIT + 8);
    const bound = load<i32>(HIT + 12);
    if (!pvNode && (ttDepth >= depth || (isProven(ttScore) && bound == BOUND_EXACT))) {
      if (bound == BOUND_EXACT || (bound == BOUND_LOWER && ttScore >= beta) || (bound == BOUND_UPPER && ttScore <= alpha)) {
        if (load<i32>(HIT + 16) == 0) leaves++;
        return ttScore;
      }
    }
  }

  store<i32>(EVAL_AT + (ply << 2), NO_EVAL);
  if (selective && quietForPruning()) {
    const staticEval = evaluate();
    store<i32>(EVAL_AT + (ply << 2), staticEval);
    if (!pvNode && depth <= futilityDepth && staticEval < FUTILITY_EVAL_CAP && staticEval > -FUTILITY_EVAL_CAP) {
      if (staticEval - futilityMargin * depth >= beta) {
        leaves++;
        return staticEval;
      }
    }
  }

  const count = generate(offset, ply);
  if (count == 0) return matedScore;
  const wasTruncated = truncated;
  const leavesStart = leaves;
  scoreMoves(offset, count, ttMove, ply);

  const childOffset = offset + count;
  let best = -INFINITE_SCORE;
  let bestMove = -1;
  let moveLimit = count;
  let improving = false;
  if (selective && evalAt(ply) != NO_EVAL) {
    improving = ply >= 2 && evalAt(ply - 2) != NO_EVAL && evalAt(ply) > evalAt(ply - 2);
    if (depth < MOVE_COUNT_DEPTHS) {
      const limit = load<i32>(MOVE_COUNTS + (depth << 2));
      moveLimit = improving ? limit : limit >> 1;
    }
  }
  for (let i = 0; i < count; i++) {
    const move = pickBest(MOVES, SCORES, offset + i, offset + count);
    const orderScore = load<i32>(SCORES + ((offset + i) << 2));
    if (i >= moveLimit && best > -EVAL_LIMIT && orderScore < TACTICAL_ORDER_SCORE) {
      leaves++;
      continue;
    }
    const extend = i == 0 && count == 1 && selective && ply < EXTENSION_MAX_PLY;
    let score: i32;
    if (depth == 1 && !extend) {
      // Every child is at depth 0 (no reduction below depth 2): evaluated without a make, as negamax would.
      nodes++;
      previewPlace(move, side + 1);
      leavePreviewSets();
      leaveCandidates(move);
      score = -leafAfter(move, ply + 1);
      if (i != 0 && score > alpha && score < beta && pvNode && !stopped) score = -leafAfter(move, ply + 1);
    } else {
      makeMove(move, ply);
      nodes++;
      if (i == 0) {
        score = -negamax(extend ? depth : depth - 1, -beta, -alpha, ply + 1, childOffset);
      } else {
        const tactical = orderScore >= TACTICAL_ORDER_SCORE;
        const reduction =
          relief >= 0
            ? logReduction(depth, i, pvNode, improving, tactical)
            : depth >= 3 && i >= 3 && !tactical
              ? i >= 8 && depth >= 5
                ? 2
                : 1
              : 0;
        score = -negamax(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, childOffset);
        if (score > alpha && reduction > 0 && !stopped) score = -negamax(depth - 1, -alpha - 1, -alpha, ply + 1, childOffset);
        if (score > alpha && score < beta && pvNode && !stopped) score = -negamax(depth - 1, -beta, -alpha, ply + 1, childOffset);
      }
      unmakeMove(move);
    }
    if (stopped) return 0;
    if (score > best) {
      best = score;
      bestMove = move;
      if (score > alpha) {
        alpha = score;
        updatePv(ply, move);
        if (score >= beta) {
          onCutoff(move, ply, depth, ttMove);
          break;
        }
      }
    }
  }

  if (wasTruncated && best < 0 && isProven(best)) {
    best = -(EVAL_LIMIT - 1);
    leaves++;
  }
  const bound = best >= beta ? BOUND_LOWER : best > alphaOrig ? BOUND_EXACT : BOUND_UPPER;
  ttStore(lo, hi, depth, bound, best, ply, bestMove, leaves == leavesStart ? 1 : 0);
  return best;
}

/**
 * search.ts negamax(depth, alpha, beta, ply) of the position the host passes: side, raw hash, the search's key salt,
 * stones, candidate count; the moves that led to it (-1 where none) and whether the last one made a five; the
 * search ply of the search's root minus the position's (rootOffset: pattern-search.ts's cut counts from it).
 */
export function search(
  depth: i32,
  alpha: i32,
  beta: i32,
  ply: i32,
  toMove: i32,
  lo: i32,
  hi: i32,
  saltLo: i32,
  saltHi: i32,
  stoneCount: i32,
  candidates: i32,
  lastMove: i32,
  moveBefore: i32,
  lastCompleted: i32,
  offsetFromRoot: i32,
  nodesBefore: f64,
  mask: i32,
): i32 {
  side = toMove;
  hashLo = lo;
  hashHi = hi;
  keyLo = saltLo;
  keyHi = saltHi;
  stones = stoneCount;
  candidateCount = candidates;
  rootOffset = offsetFromRoot;
  nodes = <i64>nodesBefore;
  checkMask = mask;
  leaves = 0;
  stopped = false;
  store<i32>(PLAYED + ((ply + 1) << 2), lastMove);
  store<i32>(PLAYED + (ply << 2), moveBefore);
  store<u8>(COMPLETED + ply + 1, <u8>lastCompleted);
  return negamax(depth, alpha, beta, ply, 0);
}

export function nodesAfter(): f64 {
  return <f64>nodes;
}

export function heuristicLeaves(): i32 {
  return leaves;
}
