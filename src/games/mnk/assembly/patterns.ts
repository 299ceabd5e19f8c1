/**
 * AssemblyScript kernel of the K = 5 pattern board's make and unmake (compiled by `npm run build` to
 * dist/src/games/mnk/patterns.wasm; loaded by ../pattern-kernel.ts): patterns.ts's place and remove, step for
 * step, on the same arrays, which live in this instance's memory (imported, one per board) and which the
 * TypeScript board reads as its own typed arrays. The same codes, entries, keys, values, flags and flag sets in
 * the same order, so every search reads the same state (the bench's node signatures check it).
 *
 * A line code's entry is read through pattern-tables.ts's half-line tables (CodeTable.halfLines(), copied in by the
 * host: 8 kB that stay in the first-level cache, where the 1 MiB code table they replace missed it): the same entry
 * for every code.
 * Not tsc input (tsconfig excludes this folder): `i32`, `u8`, `load`, `store` are AssemblyScript's.
 */

export const HALF_LINE: i32 = 5;
export const FLAG_BITS: i32 = 4;
/** pattern-tables.ts HALF_CODES and HALF_KEYS (the host checks the latter). */
const HALF_CODES: i32 = 1024;
const HALF_KEYS: i32 = 63;
/** Below this address: the module's own data. */
const BASE: i32 = 65536;

export let cellCount: i32 = 0;
export let step1: i32 = 0;
let step2: i32 = 0;
let step3: i32 = 0;
/** How far from a stone its place recodes the empty cells (pattern-tables.ts outerCellInert: 4 under freestyle). */
let recodeReach: i32 = HALF_LINE;
let journalCapacity: i32 = 0;
let journalTop: i32 = 0;
let placedCount: i32 = 0;

// Byte offsets of the arrays (set by layout()).
let HALF_MAPS: i32 = 0;
let HALF_CLASSES: i32 = 0;
let CELL_VALUE: i32 = 0;
let CELL_FLAGS: i32 = 0;
export let CODES: i32 = 0;
export let ENTRIES: i32 = 0;
export let REACH_PLUS: i32 = 0;
export let REACH_MINUS: i32 = 0;
export let KEYS: i32 = 0;
export let CELL_FLAG_OF: i32 = 0;
let CELL_VALUE_OF: i32 = 0;
export let VALUE_SUM: i32 = 0;
export let SET_ITEMS: i32 = 0;
let SET_INDEX: i32 = 0;
export let SET_SIZE: i32 = 0;
let JOURNAL_AT: i32 = 0;
let JOURNAL_ENTRY: i32 = 0;
let PLACED_CELLS: i32 = 0;
let PLACED_MARKS: i32 = 0;
export let CELLS: i32 = 0;
/** Each cell's row and column (u8: boards to 100 cells a side), so no division per distance. */
export let ROW_OF: i32 = 0;
export let COL_OF: i32 = 0;
export let END: i32 = 0;

@inline function align8(x: i32): i32 {
  return (x + 7) & ~7;
}

/** Lays the arrays out for a board of `count` cells and `n` columns; returns the bytes needed. */
export function layout(count: i32, n: i32): i32 {
  cellCount = count;
  step1 = n;
  step2 = n + 1;
  step3 = n - 1;
  // A stone changes at most 40 line entries.
  journalCapacity = 40 * count + 64;
  journalTop = 0;
  placedCount = 0;
  HALF_MAPS = BASE;
  HALF_CLASSES = HALF_MAPS + 4 * HALF_CODES;
  CELL_VALUE = HALF_CLASSES + 4096;
  CELL_FLAGS = CELL_VALUE + 6561 * 4;
  CODES = align8(CELL_FLAGS + 6561);
  ENTRIES = CODES + count * 16;
  REACH_PLUS = ENTRIES + count * 4;
  REACH_MINUS = REACH_PLUS + count * 4;
  KEYS = align8(REACH_MINUS + count * 4);
  CELL_FLAG_OF = KEYS + count * 4;
  CELL_VALUE_OF = align8(CELL_FLAG_OF + count * 2);
  VALUE_SUM = CELL_VALUE_OF + count * 8;
  SET_SIZE = VALUE_SUM + 8;
  SET_ITEMS = SET_SIZE + 2 * FLAG_BITS * 4;
  SET_INDEX = SET_ITEMS + 2 * FLAG_BITS * count * 4;
  JOURNAL_AT = SET_INDEX + 2 * FLAG_BITS * count * 4;
  JOURNAL_ENTRY = JOURNAL_AT + journalCapacity * 4;
  PLACED_CELLS = align8(JOURNAL_ENTRY + journalCapacity);
  PLACED_MARKS = PLACED_CELLS + count * 4;
  CELLS = PLACED_MARKS + count * 4;
  ROW_OF = CELLS + count;
  COL_OF = ROW_OF + count;
  END = align8(COL_OF + count);
  for (let cell = 0; cell < count; cell++) {
    store<u8>(ROW_OF + cell, <u8>(cell / n));
    store<u8>(COL_OF + cell, <u8>(cell % n));
  }
  return END;
}

/** Where array `which` starts (the order of pattern-kernel.ts's ARRAYS). */
export function offsetOf(which: i32): i32 {
  switch (which) {
    case 0: return HALF_MAPS;
    case 1: return CELL_VALUE;
    case 2: return CELL_FLAGS;
    case 3: return CODES;
    case 4: return ENTRIES;
    case 5: return REACH_PLUS;
    case 6: return REACH_MINUS;
    case 7: return KEYS;
    case 8: return CELL_FLAG_OF;
    case 9: return CELL_VALUE_OF;
    case 10: return VALUE_SUM;
    case 11: return SET_SIZE;
    case 12: return SET_ITEMS;
    case 13: return SET_INDEX;
    case 14: return CELLS;
    case 15: return JOURNAL_AT;
    case 16: return JOURNAL_ENTRY;
    case 17: return PLACED_CELLS;
    case 18: return PLACED_MARKS;
    default: return END;
  }
}

/** The rule's reach of a stone's changes (the host reads it from the half-line tables). */
export function setRecodeReach(reach: i32): void {
  recodeReach = reach;
}

/** The journal's length and the stones placed, once the host copied a board's stacks in. */
export function setCounters(top: i32, placed: i32): void {
  journalTop = top;
  placedCount = placed;
}

@inline export function stepOf(d: i32): i32 {
  return d == 0 ? 1 : d == 1 ? step1 : d == 2 ? step2 : step3;
}

@inline function pow9(d: i32): i32 {
  return d == 0 ? 1 : d == 1 ? 9 : d == 2 ? 81 : 729;
}

function updateSets(cell: i32, s: i32, changed: i32, flags: i32): void {
  for (let bit = 0; bit < FLAG_BITS; bit++) {
    if ((changed & (1 << bit)) == 0) continue;
    const set = s * FLAG_BITS + bit;
    const base = set * cellCount;
    const sizeAt = SET_SIZE + (set << 2);
    if ((flags & (1 << bit)) != 0) {
      const pos = load<i32>(sizeAt);
      store<i32>(sizeAt, pos + 1);
      store<i32>(SET_ITEMS + ((base + pos) << 2), cell);
      store<i32>(SET_INDEX + ((base + cell) << 2), pos);
    } else {
      const pos = load<i32>(SET_INDEX + ((base + cell) << 2));
      const size = load<i32>(sizeAt) - 1;
      store<i32>(sizeAt, size);
      const last = load<i32>(SET_ITEMS + ((base + size) << 2));
      store<i32>(SET_ITEMS + ((base + pos) << 2), last);
      store<i32>(SET_INDEX + ((base + last) << 2), pos);
      store<i32>(SET_INDEX + ((base + cell) << 2), -1);
    }
  }
}

@inline function refresh(cell: i32, s: i32): void {
  const at = cell * 2 + s;
  const key = <i32>load<u16>(KEYS + (at << 1));
  const value = load<i32>(CELL_VALUE + (key << 2));
  const sumAt = VALUE_SUM + (s << 2);
  store<i32>(sumAt, load<i32>(sumAt) + value - load<i32>(CELL_VALUE_OF + (at << 2)));
  store<i32>(CELL_VALUE_OF + (at << 2), value);
  const flags = <i32>load<u8>(CELL_FLAGS + key);
  const old = <i32>load<u8>(CELL_FLAG_OF + at);
  if (flags != old) {
    store<u8>(CELL_FLAG_OF + at, <u8>flags);
    updateSets(cell, s, flags ^ old, flags);
  }
}

function clearCell(cell: i32, s: i32): void {
  const at = cell * 2 + s;
  const sumAt = VALUE_SUM + (s << 2);
  store<i32>(sumAt, load<i32>(sumAt) - load<i32>(CELL_VALUE_OF + (at << 2)));
  store<i32>(CELL_VALUE_OF + (at << 2), 0);
  const old = <i32>load<u8>(CELL_FLAG_OF + at);
  if (old != 0) {
    store<u8>(CELL_FLAG_OF + at, 0);
    updateSets(cell, s, old, 0);
  }
}

/** pattern-tables.ts halfLineEntry(): black's class | white's << 4 of a line code. */
@inline function entryOf(code: i32): i32 {
  const left = code & (HALF_CODES - 1);
  const right = code >>> 10;
  const black = <i32>load<u8>(HALF_CLASSES + <i32>load<u8>(HALF_MAPS + left) * HALF_KEYS + <i32>load<u8>(HALF_MAPS + HALF_CODES + right));
  const white = <i32>load<u8>(HALF_CLASSES + <i32>load<u8>(HALF_MAPS + 2 * HALF_CODES + left) * HALF_KEYS + <i32>load<u8>(HALF_MAPS + 3 * HALF_CODES + right));
  return black | (white << 4);
}

@inline function addToKey(x: i32, s: i32, delta: i32): void {
  const at = KEYS + (x << 2) + (s << 1);
  store<u16>(at, <u16>(<i32>load<u16>(at) + delta));
}

/** The empty cell x's line entry (weight `pow` in its keys) went from `before` to `after`: both sides' keys and what they give. */
@inline function entryChanged(x: i32, before: i32, after: i32, pow: i32): void {
  const dBlack = (after & 15) - (before & 15);
  const dWhite = (after >> 4) - (before >> 4);
  if (dBlack != 0) {
    addToKey(x, 0, dBlack * pow);
    refresh(x, 0);
  }
  if (dWhite != 0) {
    addToKey(x, 1, dWhite * pow);
    refresh(x, 1);
  }
}

@inline function recode(x: i32, at: i32, now: i32, pow: i32): void {
  const before = <i32>load<u8>(ENTRIES + at);
  const after = entryOf(now);
  if (before == after) return;
  store<u8>(ENTRIES + at, <u8>after);
  const top = journalTop++;
  store<i32>(JOURNAL_AT + (top << 2), at);
  store<u8>(JOURNAL_ENTRY + top, <u8>before);
  entryChanged(x, before, after, pow);
}

function toggle(cell: i32, stone: i32): void {
  for (let d = 0; d < 4; d++) {
    const step = stepOf(d);
    const pow = pow9(d);
    let bits = stone << (2 * (HALF_LINE - 1));
    let x = cell + step;
    let reach = <i32>load<u8>(REACH_PLUS + cell * 4 + d);
    // The cells up to recodeReach away may change their entries; a cell beyond (the fifth, freestyle) only its code.
    for (let i = min(reach, recodeReach); i > 0; i--, x += step, bits >>>= 2) {
      const at = x * 4 + d;
      const now = load<i32>(CODES + (at << 2)) ^ bits;
      store<i32>(CODES + (at << 2), now);
      if (load<u8>(CELLS + x) == 0) recode(x, at, now, pow);
    }
    if (reach > recodeReach) store<i32>(CODES + ((x * 4 + d) << 2), load<i32>(CODES + ((x * 4 + d) << 2)) ^ bits);
    bits = stone << (2 * HALF_LINE);
    x = cell - step;
    reach = <i32>load<u8>(REACH_MINUS + cell * 4 + d);
    for (let i = min(reach, recodeReach); i > 0; i--, x -= step, bits <<= 2) {
      const at = x * 4 + d;
      const now = load<i32>(CODES + (at << 2)) ^ bits;
      store<i32>(CODES + (at << 2), now);
      if (load<u8>(CELLS + x) == 0) recode(x, at, now, pow);
    }
    if (reach > recodeReach) store<i32>(CODES + ((x * 4 + d) << 2), load<i32>(CODES + ((x * 4 + d) << 2)) ^ bits);
  }
}

function toggleCodes(cell: i32, stone: i32): void {
  for (let d = 0; d < 4; d++) {
    const step = stepOf(d);
    let bits = stone << (2 * (HALF_LINE - 1));
    let at = (cell + step) * 4 + d;
    for (let i = <i32>load<u8>(REACH_PLUS + cell * 4 + d); i > 0; i--, at += step * 4, bits >>>= 2) {
      store<i32>(CODES + (at << 2), load<i32>(CODES + (at << 2)) ^ bits);
    }
    bits = stone << (2 * HALF_LINE);
    at = (cell - step) * 4 + d;
    for (let i = <i32>load<u8>(REACH_MINUS + cell * 4 + d); i > 0; i--, at -= step * 4, bits <<= 2) {
      store<i32>(CODES + (at << 2), load<i32>(CODES + (at << 2)) ^ bits);
    }
  }
}

/**
 * What place(cell, s) would change, without placing: per side, the change of its value sum and of its counts of
 * cells flagged F_FIVE and F_WIN4 (previewValue, previewFives, previewWin4s). A leaf reads no more of its board, so
 * a search evaluates its leaves this way instead of a place and a remove: each empty cell lies on one of the
 * stone's lines only, so its keys change by one line's term, as in toggle().
 */
const PREVIEW_VALUE: i32 = 0;
const PREVIEW_FIVES: i32 = 2;
const PREVIEW_WIN4S: i32 = 4;
/** Per side s (i32 words): the value sum's change at PREVIEW_VALUE + s, the five and winning-four counts' at the others. */
const PREVIEW: usize = memory.data(6 * 4);
/** The flag changes place() would make, in its order (i32 words): cell | side << 14 | old flags << 16 | new flags << 20. */
const PREVIEW_EVENTS: usize = memory.data(96 * 4);
let previewEventCount: i32 = 0;
let previewCell: i32 = 0;

@inline function previewSet(slot: i32, value: i32): void {
  store<i32>(PREVIEW + (<usize>slot << 2), value);
}

@inline function previewAdd(slot: i32, delta: i32): void {
  previewSet(slot, previewGet(slot) + delta);
}

@inline function previewGet(slot: i32): i32 {
  return load<i32>(PREVIEW + (<usize>slot << 2));
}

@inline export function previewValue(s: i32): i32 {
  return previewGet(PREVIEW_VALUE + s);
}

@inline export function previewFives(s: i32): i32 {
  return previewGet(PREVIEW_FIVES + s);
}

@inline export function previewWin4s(s: i32): i32 {
  return previewGet(PREVIEW_WIN4S + s);
}

/** Adds to PREVIEW what side s's key of the empty cell x moving by `delta` gives; records a flag change. */
@inline function previewKey(x: i32, s: i32, delta: i32): void {
  const at = x * 2 + s;
  const key = <i32>load<u16>(KEYS + (at << 1)) + delta;
  previewAdd(PREVIEW_VALUE + s, load<i32>(CELL_VALUE + (key << 2)) - load<i32>(CELL_VALUE_OF + (at << 2)));
  const now = <i32>load<u8>(CELL_FLAGS + key);
  const changed = now ^ <i32>load<u8>(CELL_FLAG_OF + at);
  if (changed == 0) return;
  if ((changed & 1) != 0) previewAdd(PREVIEW_FIVES + s, (now & 1) != 0 ? 1 : -1);
  if ((changed & 2) != 0) previewAdd(PREVIEW_WIN4S + s, (now & 2) != 0 ? 1 : -1);
  store<i32>(PREVIEW_EVENTS + ((<usize>previewEventCount) << 2), x | (s << 14) | ((now ^ changed) << 16) | (now << 20));
  previewEventCount++;
}

export function previewPlace(cell: i32, stone: i32): void {
  // The placed cell leaves both sides' values and sets (clearCell()).
  for (let s = 0; s < 2; s++) {
    const placed = <i32>load<u8>(CELL_FLAG_OF + cell * 2 + s);
    previewSet(PREVIEW_VALUE + s, -load<i32>(CELL_VALUE_OF + ((cell * 2 + s) << 2)));
    previewSet(PREVIEW_FIVES + s, -(placed & 1));
    previewSet(PREVIEW_WIN4S + s, -((placed >> 1) & 1));
  }
  previewEventCount = 0;
  previewCell = cell;
  for (let d = 0; d < 4; d++) {
    const step = stepOf(d);
    const pow = pow9(d);
    for (let half = 0; half < 2; half++) {
      // The plus side first (bits shift right as the cells go away), then the minus side (left).
      let bits = half == 0 ? stone << (2 * (HALF_LINE - 1)) : stone << (2 * HALF_LINE);
      const delta = half == 0 ? step : -step;
      let x = cell + delta;
      for (let i = min(<i32>load<u8>((half == 0 ? REACH_PLUS : REACH_MINUS) + cell * 4 + d), recodeReach); i > 0; i--, x += delta) {
        if (load<u8>(CELLS + x) == 0) {
          const at = x * 4 + d;
          const before = <i32>load<u8>(ENTRIES + at);
          const after = entryOf(load<i32>(CODES + (at << 2)) ^ bits);
          if (before != after) {
            // Black's class then white's, as entryChanged().
            const dBlack = (after & 15) - (before & 15);
            const dWhite = (after >> 4) - (before >> 4);
            if (dBlack != 0) previewKey(x, 0, dBlack * pow);
            if (dWhite != 0) previewKey(x, 1, dWhite * pow);
          }
        }
        if (half == 0) bits >>>= 2;
        else bits <<= 2;
      }
    }
  }
}

/**
 * The flag sets' order as place() and remove() of the previewed stone leave it (each set appends and removes by
 * swapping in its last item, so a place and a remove permute it): the same set updates, in the same order, with
 * every flag back where it was. The lists the search generates read this order.
 */
export function leavePreviewSets(): void {
  const cell = previewCell;
  const placed0 = <i32>load<u8>(CELL_FLAG_OF + cell * 2);
  const placed1 = <i32>load<u8>(CELL_FLAG_OF + cell * 2 + 1);
  const events = previewEventCount;
  if (events == 0 && (placed0 | placed1) == 0) return;
  if (placed0 != 0) updateSets(cell, 0, placed0, 0);
  if (placed1 != 0) updateSets(cell, 1, placed1, 0);
  for (let i = 0; i < events; i++) {
    const e = load<i32>(PREVIEW_EVENTS + (<usize>i << 2));
    const before = (e >> 16) & 15;
    const after = (e >> 20) & 15;
    updateSets(e & 0x3fff, (e >> 14) & 1, before ^ after, after);
  }
  for (let i = 0; i < events; i++) {
    const e = load<i32>(PREVIEW_EVENTS + (<usize>i << 2));
    const before = (e >> 16) & 15;
    const after = (e >> 20) & 15;
    updateSets(e & 0x3fff, (e >> 14) & 1, before ^ after, before);
  }
  if (placed0 != 0) updateSets(cell, 0, placed0, placed0);
  if (placed1 != 0) updateSets(cell, 1, placed1, placed1);
}

/** patterns.ts place(): a stone of side s on the empty `cell`. */
export function place(cell: i32, s: i32): void {
  store<u8>(CELLS + cell, <u8>(s + 1));
  clearCell(cell, 0);
  clearCell(cell, 1);
  store<i32>(PLACED_CELLS + (placedCount << 2), cell);
  store<i32>(PLACED_MARKS + (placedCount << 2), journalTop);
  placedCount++;
  toggle(cell, s + 1);
}

/** patterns.ts remove(): the last stone placed (side s on `cell`) leaves; 0 when it was not the last one. */
export function remove(cell: i32, s: i32): i32 {
  const last = placedCount - 1;
  if (last < 0 || load<i32>(PLACED_CELLS + (last << 2)) != cell) return 0;
  store<u8>(CELLS + cell, 0);
  placedCount = last;
  toggleCodes(cell, s + 1);
  const mark = load<i32>(PLACED_MARKS + (last << 2));
  for (let j = mark, end = journalTop; j < end; j++) {
    const at = load<i32>(JOURNAL_AT + (j << 2));
    const x = at >> 2;
    const pow = pow9(at & 3);
    const now = <i32>load<u8>(JOURNAL_ENTRY + j);
    const before = <i32>load<u8>(ENTRIES + at);
    store<u8>(ENTRIES + at, <u8>now);
    entryChanged(x, before, now, pow);
  }
  journalTop = mark;
  refresh(cell, 0);
  refresh(cell, 1);
  return 1;
}

// ---- Reads of the board shared by the search and the VCT (patterns.ts count, item, flags, classAt, lineCells) ----

@inline export function setCount(s: i32, bit: i32): i32 {
  return load<i32>(SET_SIZE + ((s * FLAG_BITS + bit) << 2));
}

@inline export function setItem(s: i32, bit: i32, i: i32): i32 {
  return load<i32>(SET_ITEMS + (((s * FLAG_BITS + bit) * cellCount + i) << 2));
}

@inline export function flagsOf(cell: i32, s: i32): i32 {
  return <i32>load<u8>(CELL_FLAG_OF + cell * 2 + s);
}

/** The class of side s on the empty `cell` along d (an empty cell's entry holds its code's classes). */
@inline export function emptyClassAt(cell: i32, d: i32, s: i32): i32 {
  return (<i32>load<u8>(ENTRIES + cell * 4 + d) >> (4 * s)) & 15;
}

/** The empty cells within `reach` of `cell` along d, into the i32 list at address `out` from index `at`; the new end. */
export function lineCells(cell: i32, d: i32, reach: i32, out: i32, at: i32): i32 {
  const step = stepOf(d);
  const plusReach = <i32>load<u8>(REACH_PLUS + cell * 4 + d);
  const minusReach = <i32>load<u8>(REACH_MINUS + cell * 4 + d);
  const plus = reach < plusReach ? reach : plusReach;
  const minus = reach < minusReach ? reach : minusReach;
  let x = cell + step;
  for (let i = 1; i <= plus; i++, x += step) if (load<u8>(CELLS + x) == 0) store<i32>(out + (at++ << 2), x);
  x = cell - step;
  for (let i = 1; i <= minus; i++, x -= step) if (load<u8>(CELLS + x) == 0) store<i32>(out + (at++ << 2), x);
  return at;
}

/**
 * patterns.ts removesAll(): 1 when a stone of side s on the empty `cell` would leave side 1 - s no cell with `flag`
 * (nothing placed). A stone never gives the other side a flag, so each flagged cell but `cell` must lose its own.
 */
export function removesAll(cell: i32, s: i32, flag: i32): i32 {
  const o = 1 - s;
  const set = o * FLAG_BITS + ctz(flag);
  const row = <i32>load<u8>(ROW_OF + cell);
  const col = <i32>load<u8>(COL_OF + cell);
  const shift = 4 * o;
  for (let i = 0, left = load<i32>(SET_SIZE + (set << 2)); i < left; i++) {
    const w = load<i32>(SET_ITEMS + ((set * cellCount + i) << 2));
    if (w == cell) continue;
    const dr = <i32>load<u8>(ROW_OF + w) - row;
    const dc = <i32>load<u8>(COL_OF + w) - col;
    const ar = abs(dr);
    const ac = abs(dc);
    const distance = max(ar, ac);
    // Off the stone's four lines, or farther than a half line: its codes, so its flag, stay.
    if ((dr != 0 && dc != 0 && ar != ac) || distance > HALF_LINE) return 0;
    const d = dr == 0 ? 0 : dc == 0 ? 1 : dr == dc ? 2 : 3;
    const plus = dr == 0 ? dc > 0 : dr > 0;
    // toggle()'s bits for a cell `distance` away on the plus or the minus side of the stone.
    const bits = (s + 1) << (plus ? 2 * (HALF_LINE - distance) : 2 * (HALF_LINE + distance - 1));
    const at = w * 4 + d;
    const before = <i32>load<u8>(ENTRIES + at);
    const after = entryOf(load<i32>(CODES + (at << 2)) ^ bits);
    const key = <i32>load<u16>(KEYS + (w << 2) + (o << 1)) + (((after >> shift) & 15) - ((before >> shift) & 15)) * pow9(d);
    if ((<i32>load<u8>(CELL_FLAGS + key) & flag) != 0) return 0;
  }
  return 1;
}
