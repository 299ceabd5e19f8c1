/**
 * AssemblyScript kernel of the K = 5 pattern VCT (loaded through ../search-kernel.ts; one call per findWin):
 * ../vct.ts step for step, on the board's own memory with search.ts's make and unmake. The same moves in the same
 * order, the same proven-results table (laid out here; the host hands the solver's table over, so it lives on
 * from board to board as the TypeScript one does), so the depth found, the winning move and the node count are
 * those of the TypeScript path (the tests check it).
 * Not tsc input (tsconfig excludes this folder): `i32`, `u8`, `load`, `store` are AssemblyScript's.
 */
import { CELLS, KEYS, cellCount, emptyClassAt, flagsOf, lineCells, setCount, setItem } from './patterns';
import { enterPosition, makeMove, searchEnd, sideToMove, unmakeMove, zobristLo, zobristHi } from './search';
import { pickBest, pollStop } from '../../../search/assembly/host';

// vct.ts's constants.
const MAX_VCT_DEPTH: i32 = 20;
const MAX_PLIES: i32 = 2 * MAX_VCT_DEPTH + 2;
const TT_BITS: i32 = 17;
const TT_MASK: i32 = (1 << TT_BITS) - 1;
const NO_WIN: i32 = 127;
const CHECK_MASK: i32 = 63;
const LINE_REACH: i32 = 4;
const CELL_KEYS: i32 = 6561;
// pattern-tables.ts.
const F_FIVE_BIT: i32 = 0;
const F_WIN4_BIT: i32 = 1;
const F_FOUR_BIT: i32 = 2;
const F_THREE_BIT: i32 = 3;
const F_FOUR: i32 = 4;
const C_BLOCK4: i32 = 6;
const EXACT_SALT: i32 = 0x2f6b83a5;
const FREESTYLE_SALT: i32 = 0x61c88647;

// Byte offsets of the VCT's arrays (set by vctLayout()).
let TABLE: i32 = 0;
let HINT_VALUE: i32 = 0;
let MOVES: i32 = 0;
let ORDER: i32 = 0;
let STAMP: i32 = 0;
let PV: i32 = 0;
let VCT_END: i32 = 0;

let stride: i32 = 0;
let nodes: i32 = 0;
let nodeLimit: i32 = 0;
let stopped: bool = false;
let checkStop: bool = false;
let salt: i32 = 0;
let stampValue: i32 = 0;

/** Lays the VCT's arrays out after the search's (searchLayout() first); returns the bytes the memory needs. */
export function vctLayout(): i32 {
  stride = 2 * cellCount + 8 * LINE_REACH + 1;
  TABLE = (searchEnd() + 7) & ~7;
  HINT_VALUE = TABLE + (TT_MASK + 1) * 16;
  PV = HINT_VALUE + CELL_KEYS * 4;
  STAMP = PV + MAX_PLIES * 4;
  MOVES = STAMP + cellCount * 4;
  ORDER = MOVES + stride * MAX_PLIES * 4;
  VCT_END = ORDER + stride * MAX_PLIES * 4;
  return VCT_END;
}

/** Where the VCT's array `which` starts: 0 the proven-results table, 1 the hand-set values, 2 the winning line. */
export function vctOffsetOf(which: i32): i32 {
  return which == 0 ? TABLE : which == 1 ? HINT_VALUE : which == 2 ? PV : VCT_END;
}

/** patterns.ts value(): the hand-set value of side s's stone on `cell` (0 when occupied). */
@inline function valueOf(cell: i32, s: i32): i32 {
  return load<u8>(CELLS + cell) == 0 ? load<i32>(HINT_VALUE + (<i32>load<u16>(KEYS + (cell << 2) + (s << 1)) << 2)) : 0;
}

@inline function countNode(): void {
  nodes++;
  if (nodes >= nodeLimit || ((nodes & CHECK_MASK) == 0 && checkStop && pollStop(<f64>nodes) != 0)) stopped = true;
}

function storeResult(slot: i32, d: i32, won: bool): bool {
  if (stopped) return won;
  const lo = zobristLo() ^ salt;
  const hi = zobristHi();
  if (load<i32>(slot) != lo || load<i32>(slot + 4) != hi) {
    store<i32>(slot, lo);
    store<i32>(slot + 4, hi);
    store<i32>(slot + 8, 0);
    store<i32>(slot + 12, NO_WIN);
  }
  if (won) {
    if (d < load<i32>(slot + 12)) store<i32>(slot + 12, d);
  } else if (d > load<i32>(slot + 8)) {
    store<i32>(slot + 8, d);
  }
  return won;
}

/** vct.ts attack(): attacker to move with d moves left (counting the final five). */
function attack(d: i32, ply: i32): bool {
  const a = sideToMove();
  const o = 1 - a;
  if (setCount(a, F_FIVE_BIT) > 0) {
    store<i32>(PV + (ply << 2), setItem(a, F_FIVE_BIT, 0));
    return true;
  }
  if (d <= 1) return false;
  const enemyFives = setCount(o, F_FIVE_BIT);
  if (enemyFives >= 2) return false;
  if (enemyFives == 0 && setCount(a, F_WIN4_BIT) > 0) {
    store<i32>(PV + (ply << 2), setItem(a, F_WIN4_BIT, 0));
    return true;
  }
  if (ply + 2 >= MAX_PLIES) return false;
  const lo = zobristLo() ^ salt;
  const slot = TABLE + ((lo & TT_MASK) << 4);
  const hit = load<i32>(slot) == lo && load<i32>(slot + 4) == zobristHi();
  if (hit && load<i32>(slot + 8) >= d) return false;
  if (hit && ply > 0 && load<i32>(slot + 12) <= d) return true;

  const base = ply * stride;
  let count = 0;
  if (enemyFives == 1) {
    store<i32>(MOVES + (base << 2), setItem(o, F_FIVE_BIT, 0));
    count = 1;
  } else {
    for (let i = 0, fours = setCount(a, F_FOUR_BIT); i < fours; i++) {
      const cell = setItem(a, F_FOUR_BIT, i);
      store<i32>(MOVES + ((base + count) << 2), cell);
      store<i32>(ORDER + ((base + count) << 2), 1000000 + valueOf(cell, a));
      count++;
    }
    if (d >= 3) {
      for (let i = 0, threes = setCount(a, F_THREE_BIT); i < threes; i++) {
        const cell = setItem(a, F_THREE_BIT, i);
        if ((flagsOf(cell, a) & F_FOUR) != 0) continue;
        store<i32>(MOVES + ((base + count) << 2), cell);
        store<i32>(ORDER + ((base + count) << 2), valueOf(cell, a) + (valueOf(cell, o) >> 1));
        count++;
      }
    }
  }
  for (let i = 0; i < count; i++) {
    const move = pickBest(MOVES, ORDER, base + i, base + count);
    makeMove(move, ply);
    countNode();
    let won = false;
    if (!stopped) {
      const fives = setCount(a, F_FIVE_BIT);
      if (fives >= 2) won = true;
      else if (fives == 1) {
        // A four: the block is forced (the defender has no five cell: none before, or just blocked).
        const block = setItem(a, F_FIVE_BIT, 0);
        makeMove(block, ply + 1);
        won = attack(d - 1, ply + 2);
        unmakeMove(block);
      } else if (d >= 3 && setCount(a, F_WIN4_BIT) > 0) {
        won = defend(d - 1, ply + 1);
      }
    }
    unmakeMove(move);
    if (won) {
      store<i32>(PV + (ply << 2), move);
      return storeResult(slot, d, true);
    }
    if (stopped) return false;
  }
  return storeResult(slot, d, false);
}

/** vct.ts defend(): defender to move after a three (the attacker, d moves left, has a winning-four cell and no five cell). */
function defend(d: i32, ply: i32): bool {
  const o = sideToMove();
  const a = 1 - o;
  const moves = MOVES + ((ply * stride) << 2);
  const mark = ++stampValue;
  let count = 0;
  for (let i = 0, fours = setCount(o, F_FOUR_BIT); i < fours; i++) {
    const cell = setItem(o, F_FOUR_BIT, i);
    store<i32>(STAMP + (cell << 2), mark);
    store<i32>(moves + (count++ << 2), cell);
  }
  const w = setItem(a, F_WIN4_BIT, 0);
  if (load<i32>(STAMP + (w << 2)) != mark) {
    store<i32>(STAMP + (w << 2), mark);
    store<i32>(moves + (count++ << 2), w);
  }
  const lines = count;
  let end = count;
  for (let dir = 0; dir < 4; dir++) {
    if (emptyClassAt(w, dir, a) >= C_BLOCK4) end = lineCells(w, dir, LINE_REACH, moves, end);
  }
  for (let j = lines; j < end; j++) {
    const cell = load<i32>(moves + (j << 2));
    if (load<i32>(STAMP + (cell << 2)) == mark) continue;
    store<i32>(STAMP + (cell << 2), mark);
    store<i32>(moves + (count++ << 2), cell);
  }
  for (let i = 0; i < count; i++) {
    const move = load<i32>(moves + (i << 2));
    makeMove(move, ply);
    countNode();
    // A reply that leaves the defender no five cell and the attacker a winning-four cell loses in two.
    const lost = !stopped && ((setCount(o, F_FIVE_BIT) == 0 && setCount(a, F_WIN4_BIT) > 0) || attack(d, ply + 1));
    unmakeMove(move);
    if (!lost) return false;
  }
  return true;
}

/**
 * vct.ts findWin() of the position the host passes (side, raw hash, stones, candidate count, side key): the smallest
 * d in [2, maxDepth] of a win, 1 for a five on the next move, or 0; the winning move at PV, vctNodes(), vctStopped().
 * `stop` 1: ask the host's stop check every 64 nodes.
 */
export function vctFindWin(
  toMove: i32,
  lo: i32,
  hi: i32,
  stoneCount: i32,
  candidates: i32,
  sideLo: i32,
  sideHi: i32,
  exact: i32,
  maxDepth: i32,
  limit: i32,
  stop: i32,
): i32 {
  enterPosition(toMove, lo, hi, stoneCount, candidates, sideLo, sideHi);
  nodes = 0;
  nodeLimit = limit;
  stopped = false;
  checkStop = stop != 0;
  salt = exact != 0 ? EXACT_SALT : FREESTYLE_SALT;
  if (setCount(toMove, F_FIVE_BIT) > 0) {
    store<i32>(PV, setItem(toMove, F_FIVE_BIT, 0));
    return 1;
  }
  const depthLimit = maxDepth < MAX_VCT_DEPTH ? maxDepth : MAX_VCT_DEPTH;
  for (let d = 2; d <= depthLimit; d++) {
    if (attack(d, 0)) return d;
    if (stopped) return 0;
  }
  return 0;
}

export function vctNodes(): i32 {
  return nodes;
}

export function vctStopped(): i32 {
  return stopped ? 1 : 0;
}
