/**
 * Incremental line patterns of the K = 5 fast path (pattern-tables.ts): per cell and direction a
 * 20-bit code of the ten cells around it on that line, updated by a move on the cells of its four
 * lines only (at most 40 codes). From the codes, by table lookups: each cell's class per direction
 * and side, the cell's key (the four classes), its flags (five, winning four, four, open three) and
 * value. Per side, the empty cells are kept in one set per flag and their values summed, so the
 * evaluation, move ordering, forced replies and the VCF solver read maintained state instead of
 * scanning the board.
 *
 * Codes are kept for occupied cells too (a move toggles bits without asking); keys only for empty
 * ones. Stones leave in the reverse order they came (make/unmake), so an occupied cell's key is still
 * the one it had when its stone arrived, and a move journals the line entries it changed: unmake
 * toggles the codes back and replays the journal, with no table lookup.
 */
import {
  CELL_FLAGS,
  CELL_VALUE,
  FLAG_BITS,
  HALF_LINE,
  HINT_VALUE,
  LINE_SLOTS,
  POW9,
  UNKNOWN,
  type CodeTable,
  classesOf,
  codeTable,
} from './pattern-tables.js';
import {
  K_CELLS,
  K_CELL_FLAGS,
  K_CELL_FLAG_OF,
  K_CELL_VALUE,
  K_CELL_VALUE_OF,
  K_CODES,
  K_ENTRIES,
  K_KEYS,
  K_REACH_MINUS,
  K_REACH_PLUS,
  K_SET_INDEX,
  K_SET_ITEMS,
  K_SET_SIZE,
  K_VALUE_SUM,
  K_JOURNAL_AT,
  K_JOURNAL_ENTRY,
  K_PLACED_CELLS,
  K_PLACED_MARKS,
  type BoardKernel,
  patternKernel,
} from './pattern-kernel.js';

const DIR_DR = [0, 1, 1, 1];
const DIR_DC = [1, 0, 1, -1];
const WALL = 3;

export class PatternBoard {
  readonly m: number;
  readonly n: number;
  readonly cellCount: number;
  readonly exact: boolean;
  /** The position's board (0 empty, 1 black, 2 white): read, never written here. */
  private readonly cells: Uint8Array;
  private readonly table: CodeTable;
  /** Line code per (cell * 4 + direction). */
  codes: Int32Array;
  /** Table entry (both sides' classes) of each empty cell's code per direction: a move looks up only the new code. */
  private entries: Uint8Array;
  /** Cells reachable from (cell, direction) forwards / backwards, at most HALF_LINE. */
  private reachPlus: Uint8Array;
  private reachMinus: Uint8Array;
  private readonly steps: Int32Array;
  /** Per (cell * 2 + side): sum of class_d * 9^d. */
  keys: Uint16Array;
  /** Per (cell * 2 + side): flags and value while the cell is empty, 0 when occupied. */
  cellFlags: Uint8Array;
  cellValue: Int32Array;
  /** Per side: sum of cellValue over the empty cells. */
  valueSum: Int32Array;
  /** Sets per (side * FLAG_BITS + bit): members at setItems[set * cells ..], sizes in setSize. */
  setItems: Int32Array;
  setSize: Int32Array;
  private setIndex: Int32Array;
  /** Journal of line-entry changes: (cell * 4 + direction) and the entry before, per stone placed. */
  private journalAt: Int32Array;
  private journalEntry: Uint8Array;
  private journalTop = 0;
  /** Per stone on the board, in the order placed: its cell and where its journal starts. */
  private readonly placedCells: Int32Array;
  private readonly placedMarks: Int32Array;
  private placedCount = 0;
  /** Place and remove in WebAssembly (pattern-kernel.ts) once attachKernel() ran, on the arrays above, which then live in its memory. */
  private kernel: BoardKernel | null = null;
  private kernelTried = false;

  constructor(m: number, n: number, exact: boolean, cells: Uint8Array) {
    this.m = m;
    this.n = n;
    this.cellCount = m * n;
    this.exact = exact;
    this.cells = cells;
    this.table = codeTable(exact);
    const count = this.cellCount;
    this.codes = new Int32Array(count * 4);
    this.entries = new Uint8Array(count * 4);
    this.reachPlus = new Uint8Array(count * 4);
    this.reachMinus = new Uint8Array(count * 4);
    this.steps = Int32Array.from({ length: 4 }, (_, d) => DIR_DR[d] * n + DIR_DC[d]);
    this.keys = new Uint16Array(count * 2);
    this.cellFlags = new Uint8Array(count * 2);
    this.cellValue = new Int32Array(count * 2);
    this.valueSum = new Int32Array(2);
    this.setSize = new Int32Array(2 * FLAG_BITS);
    this.setItems = new Int32Array(2 * FLAG_BITS * count);
    this.setIndex = new Int32Array(2 * FLAG_BITS * count).fill(-1);
    this.journalAt = new Int32Array(64 * 8);
    this.journalEntry = new Uint8Array(64 * 8);
    this.placedCells = new Int32Array(count);
    this.placedMarks = new Int32Array(count);
    for (let cell = 0; cell < count; cell++) {
      const r = (cell / n) | 0;
      const c = cell - r * n;
      for (let d = 0; d < 4; d++) {
        let plus = 0;
        while (plus < HALF_LINE && onBoard(m, n, r + DIR_DR[d] * (plus + 1), c + DIR_DC[d] * (plus + 1))) plus++;
        let minus = 0;
        while (minus < HALF_LINE && onBoard(m, n, r - DIR_DR[d] * (minus + 1), c - DIR_DC[d] * (minus + 1))) minus++;
        this.reachPlus[cell * 4 + d] = plus;
        this.reachMinus[cell * 4 + d] = minus;
        let code = 0;
        for (let i = minus + 1; i <= HALF_LINE; i++) code |= WALL << (2 * (HALF_LINE - i));
        for (let i = plus + 1; i <= HALF_LINE; i++) code |= WALL << (2 * (HALF_LINE - 1 + i));
        this.codes[cell * 4 + d] = code;
      }
      this.rekey(cell);
      this.refresh(cell, 0);
      this.refresh(cell, 1);
    }
  }

  /** The WebAssembly kernel place and remove run in, once attachKernel() found one. */
  get kernelHandle(): BoardKernel | null {
    return this.kernel;
  }

  /** True when place and remove run in the WebAssembly kernel (pattern-kernel.ts). */
  get usesKernel(): boolean {
    return this.kernel !== null;
  }

  /**
   * Moves the board into a WebAssembly kernel, when there is one: its state (and the stack of stones placed, for
   * their unmake) copied into the kernel's memory, the arrays above replaced by views of it. Done once, by a board
   * that is about to be searched: a kernel's memory costs more to set up than the rest of the board (a board made
   * only to read a request's position keeps the TypeScript path).
   */
  attachKernel(): void {
    if (this.kernelTried) return;
    this.kernelTried = true;
    const count = this.cellCount;
    const kernel = patternKernel(count, this.n, this.table.halfLines());
    if (kernel === null) return;
    const ints = (which: number, from: Int32Array): Int32Array => {
      const view = new Int32Array(kernel.buffer, kernel.offsetOf(which), from.length);
      view.set(from);
      return view;
    };
    const bytes = (which: number, from: Uint8Array): Uint8Array => {
      const view = new Uint8Array(kernel.buffer, kernel.offsetOf(which), from.length);
      view.set(from);
      return view;
    };
    this.codes = ints(K_CODES, this.codes);
    this.entries = bytes(K_ENTRIES, this.entries);
    this.reachPlus = bytes(K_REACH_PLUS, this.reachPlus);
    this.reachMinus = bytes(K_REACH_MINUS, this.reachMinus);
    const keys = new Uint16Array(kernel.buffer, kernel.offsetOf(K_KEYS), this.keys.length);
    keys.set(this.keys);
    this.keys = keys;
    this.cellFlags = bytes(K_CELL_FLAG_OF, this.cellFlags);
    this.cellValue = ints(K_CELL_VALUE_OF, this.cellValue);
    this.valueSum = ints(K_VALUE_SUM, this.valueSum);
    this.setSize = ints(K_SET_SIZE, this.setSize);
    this.setItems = ints(K_SET_ITEMS, this.setItems);
    this.setIndex = ints(K_SET_INDEX, this.setIndex);
    ints(K_CELL_VALUE, CELL_VALUE);
    bytes(K_CELL_FLAGS, CELL_FLAGS);
    bytes(K_CELLS, this.cells.subarray(0, count));
    ints(K_JOURNAL_AT, this.journalAt.subarray(0, this.journalTop));
    bytes(K_JOURNAL_ENTRY, this.journalEntry.subarray(0, this.journalTop));
    ints(K_PLACED_CELLS, this.placedCells.subarray(0, this.placedCount));
    ints(K_PLACED_MARKS, this.placedMarks.subarray(0, this.placedCount));
    kernel.setCounters(this.journalTop, this.placedCount);
    this.kernel = kernel;
  }

  /** A stone of side s now stands on `cell` (the board already says so). */
  place(cell: number, s: number): void {
    if (this.kernel !== null) {
      this.kernel.place(cell, s);
      return;
    }
    for (let side = 0; side < 2; side++) this.clearCell(cell, side);
    // At most 40 entries change: room for them before the walk.
    if (this.journalTop + 40 > this.journalAt.length) this.growJournal();
    this.placedCells[this.placedCount] = cell;
    this.placedMarks[this.placedCount++] = this.journalTop;
    this.toggle(cell, s + 1);
  }

  /** The stone of side s left `cell` (the board already says so); it must be the last stone placed. */
  remove(cell: number, s: number): void {
    if (this.kernel !== null) {
      if (this.kernel.remove(cell, s) === 0) throw new Error(`PatternBoard.remove(${cell}): not the last stone placed`);
      return;
    }
    const last = this.placedCount - 1;
    if (last < 0 || this.placedCells[last] !== cell) throw new Error(`PatternBoard.remove(${cell}): not the last stone placed`);
    this.placedCount = last;
    this.toggleCodes(cell, s + 1);
    // Replayed in the order made, as a fresh lookup walk would meet them, so the flag sets end in the same order.
    const keys = this.keys;
    for (let j = this.placedMarks[last], end = this.journalTop; j < end; j++) {
      const at = this.journalAt[j];
      const x = at >> 2;
      const pow = POW9[at & 3];
      const now = this.journalEntry[j];
      const before = this.entries[at];
      this.entries[at] = now;
      const dBlack = (now & 15) - (before & 15);
      const dWhite = (now >> 4) - (before >> 4);
      if (dBlack !== 0) {
        keys[x * 2] += dBlack * pow;
        this.refresh(x, 0);
      }
      if (dWhite !== 0) {
        keys[x * 2 + 1] += dWhite * pow;
        this.refresh(x, 1);
      }
    }
    this.journalTop = this.placedMarks[last];
    // The cell's keys are those it had when the stone came (nothing on its lines changed since).
    this.refresh(cell, 0);
    this.refresh(cell, 1);
  }

  private growJournal(): void {
    const at = new Int32Array(this.journalAt.length * 2);
    at.set(this.journalAt);
    this.journalAt = at;
    const entry = new Uint8Array(this.journalEntry.length * 2);
    entry.set(this.journalEntry);
    this.journalEntry = entry;
  }

  /** Number of empty cells of side s with flag `flag` (an F_* bit). */
  count(s: number, flag: number): number {
    return this.setSize[s * FLAG_BITS + bitIndex(flag)];
  }

  /** The i-th empty cell of side s with flag `flag`. */
  item(s: number, flag: number, i: number): number {
    return this.setItems[(s * FLAG_BITS + bitIndex(flag)) * this.cellCount + i];
  }

  flags(cell: number, s: number): number {
    return this.cellFlags[cell * 2 + s];
  }

  /** Move-ordering value of side s's stone on `cell` (hand-set table; 0 when occupied); the evaluation sums the fitted ones. */
  value(cell: number, s: number): number {
    return this.cells[cell] === 0 ? HINT_VALUE[this.keys[cell * 2 + s]] : 0;
  }

  /** Class (pattern-tables C_*) of a stone of side s on `cell` along direction d. */
  classAt(cell: number, d: number, s: number): number {
    return (classesOf(this.table, this.codes[cell * 4 + d]) >> (4 * s)) & 15;
  }

  /** The line code of (cell, d) recomputed from the board (tests compare it with the maintained one). */
  recomputedCode(cell: number, d: number): number {
    const n = this.n;
    const r = (cell / n) | 0;
    const c = cell - r * n;
    let code = 0;
    for (let j = 0; j < LINE_SLOTS; j++) {
      const offset = j < HALF_LINE ? j - HALF_LINE : j - HALF_LINE + 1;
      const rr = r + DIR_DR[d] * offset;
      const cc = c + DIR_DC[d] * offset;
      const v = onBoard(this.m, n, rr, cc) ? this.cells[rr * n + cc] : WALL;
      code |= v << (2 * j);
    }
    return code;
  }

  /**
   * Whether a stone of side s on the empty `cell` would leave the other side no cell with `flag`, read without placing
   * it. A stone never gives the other side a flag (its classes only fall: the tests check every line code and class
   * change under both rules), so the answer is whether each flagged cell but `cell` loses its flag. Such a cell must
   * lie within a half line on one of the stone's four lines, and only its entry in that direction changes, so its key
   * after the move is its key now plus one class difference (the same tables as place()).
   */
  removesAll(cell: number, s: number, flag: number): boolean {
    if (this.kernel !== null) return this.kernel.removesAll(cell, s, flag) !== 0;
    const o = 1 - s;
    const shift = 4 * o;
    const n = this.n;
    const row = (cell / n) | 0;
    const col = cell - row * n;
    for (let i = 0, left = this.count(o, flag); i < left; i++) {
      const w = this.item(o, flag, i);
      if (w === cell) continue;
      const wRow = (w / n) | 0;
      const dr = wRow - row;
      const dc = w - wRow * n - col;
      const distance = Math.max(Math.abs(dr), Math.abs(dc));
      if ((dr !== 0 && dc !== 0 && Math.abs(dr) !== Math.abs(dc)) || distance > HALF_LINE) return false;
      const d = dr === 0 ? 0 : dc === 0 ? 1 : dr === dc ? 2 : 3;
      const plus = dr === 0 ? dc > 0 : dr > 0;
      // place()'s bits for a cell `distance` away on the plus or the minus side of the stone.
      const bits = (s + 1) << (plus ? 2 * (HALF_LINE - distance) : 2 * (HALF_LINE + distance - 1));
      const at = w * 4 + d;
      const before = this.entries[at];
      const after = classesOf(this.table, this.codes[at] ^ bits);
      const key = this.keys[w * 2 + o] + (((after >> shift) & 15) - ((before >> shift) & 15)) * POW9[d];
      if ((CELL_FLAGS[key] & flag) !== 0) return false;
    }
    return true;
  }

  /** Walks one cell's empty neighbours along direction d within `reach` (defence candidates); returns the new end. */
  lineCells(cell: number, d: number, reach: number, out: Int32Array, at: number): number {
    const step = this.steps[d];
    const plus = Math.min(reach, this.reachPlus[cell * 4 + d]);
    const minus = Math.min(reach, this.reachMinus[cell * 4 + d]);
    for (let i = 1, x = cell + step; i <= plus; i++, x += step) if (this.cells[x] === 0) out[at++] = x;
    for (let i = 1, x = cell - step; i <= minus; i++, x -= step) if (this.cells[x] === 0) out[at++] = x;
    return at;
  }

  /**
   * XORs `stone` into the codes of the cells on the four lines through `cell`, and brings the keys,
   * flags and values of the empty ones up to date, journaling each changed line entry. Occupied
   * cells only get their codes.
   */
  private toggle(cell: number, stone: number): void {
    const codes = this.codes;
    const cells = this.cells;
    for (let d = 0; d < 4; d++) {
      const step = this.steps[d];
      const pow = POW9[d];
      // The cell i steps ahead sees this one at offset -i (slot 5 - i); i steps behind, at +i (slot 4 + i).
      let bits = stone << (2 * (HALF_LINE - 1));
      for (let i = this.reachPlus[cell * 4 + d], x = cell + step; i > 0; i--, x += step, bits >>>= 2) {
        const at = x * 4 + d;
        const now = codes[at] ^ bits;
        codes[at] = now;
        if (cells[x] === 0) this.recode(x, at, now, pow);
      }
      bits = stone << (2 * HALF_LINE);
      for (let i = this.reachMinus[cell * 4 + d], x = cell - step; i > 0; i--, x -= step, bits <<= 2) {
        const at = x * 4 + d;
        const now = codes[at] ^ bits;
        codes[at] = now;
        if (cells[x] === 0) this.recode(x, at, now, pow);
      }
    }
  }

  /** XORs `stone` into the codes of the cells on the four lines through `cell`, nothing else (remove). */
  private toggleCodes(cell: number, stone: number): void {
    const codes = this.codes;
    for (let d = 0; d < 4; d++) {
      const step = this.steps[d];
      let bits = stone << (2 * (HALF_LINE - 1));
      for (let i = this.reachPlus[cell * 4 + d], at = (cell + step) * 4 + d; i > 0; i--, at += step * 4, bits >>>= 2) codes[at] ^= bits;
      bits = stone << (2 * HALF_LINE);
      for (let i = this.reachMinus[cell * 4 + d], at = (cell - step) * 4 + d; i > 0; i--, at -= step * 4, bits <<= 2) codes[at] ^= bits;
    }
  }

  /** The empty cell x's code at `at` (x * 4 + direction, weight `pow` in the key) is now `now`. */
  private recode(x: number, at: number, now: number, pow: number): void {
    const before = this.entries[at];
    // Codes are filled in on first use (pattern-tables.ts); UNKNOWN (0xff) is never a real entry.
    let after = this.table.table[now];
    if (after === UNKNOWN) after = this.table.fill(now);
    if (before === after) return;
    this.entries[at] = after;
    const top = this.journalTop++;
    this.journalAt[top] = at;
    this.journalEntry[top] = before;
    const dBlack = (after & 15) - (before & 15);
    const dWhite = (after >> 4) - (before >> 4);
    if (dBlack !== 0) {
      this.keys[x * 2] += dBlack * pow;
      this.refresh(x, 0);
    }
    if (dWhite !== 0) {
      this.keys[x * 2 + 1] += dWhite * pow;
      this.refresh(x, 1);
    }
  }

  /** Builds both sides' keys and line entries of the empty `cell` from its four codes (construction). */
  private rekey(cell: number): void {
    let black = 0;
    let white = 0;
    for (let d = 0; d < 4; d++) {
      const entry = classesOf(this.table, this.codes[cell * 4 + d]);
      this.entries[cell * 4 + d] = entry;
      black += (entry & 15) * POW9[d];
      white += (entry >> 4) * POW9[d];
    }
    this.keys[cell * 2] = black;
    this.keys[cell * 2 + 1] = white;
  }

  /** Brings (cell, side)'s flags, sets and value in line with its key (the cell is empty). */
  private refresh(cell: number, s: number): void {
    const at = cell * 2 + s;
    const key = this.keys[at];
    const value = CELL_VALUE[key];
    this.valueSum[s] += value - this.cellValue[at];
    this.cellValue[at] = value;
    const flags = CELL_FLAGS[key];
    const old = this.cellFlags[at];
    if (flags !== old) {
      this.cellFlags[at] = flags;
      this.updateSets(cell, s, flags ^ old, flags);
    }
  }

  /** Takes an occupied cell out of side s's value sum and sets. */
  private clearCell(cell: number, s: number): void {
    const at = cell * 2 + s;
    this.valueSum[s] -= this.cellValue[at];
    this.cellValue[at] = 0;
    const old = this.cellFlags[at];
    if (old !== 0) {
      this.cellFlags[at] = 0;
      this.updateSets(cell, s, old, 0);
    }
  }

  private updateSets(cell: number, s: number, changed: number, flags: number): void {
    const count = this.cellCount;
    for (let bit = 0; bit < FLAG_BITS; bit++) {
      if ((changed & (1 << bit)) === 0) continue;
      const set = s * FLAG_BITS + bit;
      const base = set * count;
      if ((flags & (1 << bit)) !== 0) {
        const pos = this.setSize[set]++;
        this.setItems[base + pos] = cell;
        this.setIndex[base + cell] = pos;
      } else {
        const pos = this.setIndex[base + cell];
        const last = this.setItems[base + --this.setSize[set]];
        this.setItems[base + pos] = last;
        this.setIndex[base + last] = pos;
        this.setIndex[base + cell] = -1;
      }
    }
  }
}

function onBoard(m: number, n: number, r: number, c: number): boolean {
  return r >= 0 && r < m && c >= 0 && c < n;
}

function bitIndex(flag: number): number {
  return 31 - Math.clz32(flag);
}
