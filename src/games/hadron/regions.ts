/**
 * Game values of independent regions, and position-independent keys for them.
 *
 * A region's game depends only on its live cells' adjacency and balances, so its key is a Zobrist
 * sum over (cell offset inside the bounding box, balance), minimised over the 8 symmetries of the
 * square grid (any rotation or reflection preserves adjacency). Regions that differ only by the
 * colours are negatives of each other (swapping every colour turns White's options into Black's),
 * so the value cache also folds the colour flip: value(flipped) = -value.
 *
 * The value of a region is computed by exploring its game: each playable cell gives White the
 * option "W here" and Black the option "B here"; after the placement the remaining cells are
 * re-analysed (new dead cells, new sub-regions) and the option's value is the sum of the
 * sub-regions' values. Everything is memoised by region key.
 */
import type { GameStore } from './cgt.js';
import { ZERO } from './cgt.js';
import { BLACK, type Geometry, MAX_CELLS, MAX_SIDE, WHITE } from './geometry.js';
import { LiveAnalysis, liftPiece, placePiece } from './liveness.js';
import { zobristKeys } from '../../core/random.js';

const FRAME = MAX_SIDE;
const BALANCE_VALUES = 9;
const REGION_KEYS = zobristKeys(2 * MAX_CELLS * BALANCE_VALUES, 0x5265_6769);
const PLACED_KEYS = zobristKeys(2 * MAX_CELLS * BALANCE_VALUES, 0x506c_6163);

/** Thrown (a shared constant, nothing allocated) to unwind a computation when time is up. */
export const ABORTED = { aborted: true } as const;

/** 64-bit-keyed open-addressing map to non-negative ints. */
export class KeyMap {
  private lo: Int32Array;
  private hi: Int32Array;
  private values: Int32Array;
  private mask: number;
  size = 0;

  constructor(bits = 12) {
    this.lo = new Int32Array(1 << bits);
    this.hi = new Int32Array(1 << bits);
    this.values = new Int32Array(1 << bits).fill(-1);
    this.mask = (1 << bits) - 1;
  }

  get(lo: number, hi: number): number {
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.mask;
    for (;;) {
      const v = this.values[i];
      if (v < 0) return -1;
      if (this.lo[i] === lo && this.hi[i] === hi) return v;
      i = (i + 1) & this.mask;
    }
  }

  set(lo: number, hi: number, value: number): void {
    if ((this.size + 1) * 2 > this.values.length) this.grow();
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.mask;
    for (;;) {
      const v = this.values[i];
      if (v < 0) {
        this.size++;
        break;
      }
      if (this.lo[i] === lo && this.hi[i] === hi) break;
      i = (i + 1) & this.mask;
    }
    this.lo[i] = lo;
    this.hi[i] = hi;
    this.values[i] = value;
  }

  clear(): void {
    this.values.fill(-1);
    this.size = 0;
  }

  private grow(): void {
    const { lo, hi, values } = this;
    const size = values.length * 2;
    this.lo = new Int32Array(size);
    this.hi = new Int32Array(size);
    this.values = new Int32Array(size).fill(-1);
    this.mask = size - 1;
    this.size = 0;
    for (let i = 0; i < values.length; i++) if (values[i] >= 0) this.set(lo[i], hi[i], values[i]);
  }
}

/** Transformed (row, col) of every cell under the 8 grid symmetries, per board shape. */
const transformCache = new Map<Geometry, Int8Array>();

function transformsOf(g: Geometry): Int8Array {
  let table = transformCache.get(g);
  if (table === undefined) {
    table = new Int8Array(g.cellCount * 16);
    for (let cell = 0; cell < g.cellCount; cell++) {
      const r = g.rowOf[cell];
      const c = g.colOf[cell];
      for (let t = 0; t < 8; t++) {
        let a = t & 4 ? c : r;
        let b = t & 4 ? r : c;
        if (t & 1) a = -a;
        if (t & 2) b = -b;
        table[cell * 16 + t * 2] = a;
        table[cell * 16 + t * 2 + 1] = b;
      }
    }
    transformCache.set(g, table);
  }
  return table;
}

/** Computes region keys; results in keyLo / keyHi / keyFlipped. */
export class RegionKeys {
  keyLo = 0;
  keyHi = 0;
  /** True when the minimal variant is the colour-flipped one. */
  keyFlipped = false;
  private readonly minA = new Int32Array(8);
  private readonly minB = new Int32Array(8);

  /**
   * Key of the region list[start .. end) up to translation and the 8 symmetries. `colourSign`
   * multiplies balances (-1: key of the region with colours swapped); `foldColours` also considers
   * the swapped variant and keeps the smaller (keyFlipped tells which one won).
   */
  compute(g: Geometry, balance: Int8Array, list: Int32Array, start: number, end: number, colourSign: number, foldColours: boolean): void {
    const table = transformsOf(g);
    const minA = this.minA;
    const minB = this.minB;
    minA.fill(127);
    minB.fill(127);
    for (let i = start; i < end; i++) {
      const base = list[i] * 16;
      for (let t = 0; t < 8; t++) {
        const a = table[base + t * 2];
        const b = table[base + t * 2 + 1];
        if (a < minA[t]) minA[t] = a;
        if (b < minB[t]) minB[t] = b;
      }
    }
    let bestLo = 0;
    let bestHi = 0;
    let bestFlip = false;
    let first = true;
    for (let flip = 0; flip < (foldColours ? 2 : 1); flip++) {
      const sign = flip === 0 ? colourSign : -colourSign;
      for (let t = 0; t < 8; t++) {
        let lo = 0;
        let hi = 0;
        const offset = (minA[t] * FRAME + minB[t]) * BALANCE_VALUES - 4;
        for (let i = start; i < end; i++) {
          const cell = list[i];
          const base = cell * 16 + t * 2;
          const index = ((table[base] * FRAME + table[base + 1]) * BALANCE_VALUES + balance[cell] * sign - offset) * 2;
          lo = (lo + REGION_KEYS[index]) | 0;
          hi = (hi + REGION_KEYS[index + 1]) | 0;
        }
        if (first || hi >>> 0 < bestHi >>> 0 || (hi === bestHi && lo >>> 0 < bestLo >>> 0)) {
          bestLo = lo;
          bestHi = hi;
          bestFlip = flip === 1;
          first = false;
        }
      }
    }
    this.keyLo = bestLo;
    this.keyHi = bestHi;
    this.keyFlipped = bestFlip;
  }

  /**
   * Cheaper key of the region exactly where it is (no symmetry folding), in a key space of its own.
   * `colourSign` as in compute.
   */
  computePlaced(balance: Int8Array, list: Int32Array, start: number, end: number, colourSign: number): void {
    let lo = 0x6a09e667;
    let hi = 0x3c6ef372;
    for (let i = start; i < end; i++) {
      const cell = list[i];
      const index = (cell * BALANCE_VALUES + balance[cell] * colourSign + 4) * 2;
      lo = (lo + PLACED_KEYS[index]) | 0;
      hi = (hi + PLACED_KEYS[index + 1]) | 0;
    }
    this.keyLo = lo;
    this.keyHi = hi;
    this.keyFlipped = false;
  }
}

/**
 * Region values (White = Left) on raw board arrays the caller owns: placements are made and undone
 * in place, so the arrays are unchanged afterwards.
 */
export class RegionValues {
  readonly store: GameStore;
  readonly cache = new KeyMap(14);
  /**
   * The same values by the region's cells where they are (and the board shape): a hit costs one
   * pass over the cells instead of the 16 symmetric variants of the folded key.
   */
  readonly placedCache = new KeyMap(14);
  /** Region positions expanded (cache misses), for statistics and polling. */
  expanded = 0;
  shouldStop: (() => boolean) | null = null;

  private readonly keys = new RegionKeys();
  private readonly analyses: LiveAnalysis[] = [];
  private readonly lists: Int32Array[] = [];
  private g!: Geometry;
  private cells!: Uint8Array;
  private balance!: Int8Array;
  /** id of * = {0|0}, the value of a lone playable cell (re-made whenever the store is reset). */
  star: number;

  constructor(store: GameStore) {
    this.store = store;
    for (let d = 0; d <= MAX_CELLS; d++) {
      this.analyses.push(new LiveAnalysis());
      this.lists.push(new Int32Array(MAX_CELLS));
    }
    this.star = this.makeStar();
  }

  private makeStar(): number {
    const base = this.store.stackTop;
    this.store.push(ZERO);
    this.store.push(ZERO);
    return this.store.make(base, 1, 1);
  }

  /** Forgets every value; call right after resetting the store (star's id is re-made). */
  clear(): void {
    this.cache.clear();
    this.placedCache.clear();
    this.star = this.makeStar();
  }

  /**
   * Value of the region list[start .. end) of live cells on the given board. Throws ABORTED when
   * shouldStop says so (checked every 256 expansions).
   */
  value(g: Geometry, cells: Uint8Array, balance: Int8Array, list: Int32Array, start: number, end: number): number {
    this.g = g;
    this.cells = cells;
    this.balance = balance;
    return this.regionValue(list, start, end, 0);
  }

  private regionValue(list: Int32Array, start: number, end: number, depth: number): number {
    if (end - start === 1) return this.star;
    const keys = this.keys;
    keys.computePlaced(this.balance, list, start, end, 1);
    const shape = this.g.rows * 16 + this.g.cols;
    const placedLo = keys.keyLo ^ Math.imul(shape, 0x9e3779b1);
    const placedHi = keys.keyHi ^ Math.imul(shape, 0x85ebca6b);
    const placed = this.placedCache.get(placedLo, placedHi);
    if (placed >= 0) return placed;
    const value = this.foldedValue(list, start, end, depth);
    this.placedCache.set(placedLo, placedHi, value);
    return value;
  }

  private foldedValue(list: Int32Array, start: number, end: number, depth: number): number {
    const keys = this.keys;
    keys.compute(this.g, this.balance, list, start, end, 1, true);
    const keyLo = keys.keyLo;
    const keyHi = keys.keyHi;
    const flipped = keys.keyFlipped;
    const store = this.store;
    const known = this.cache.get(keyLo, keyHi);
    if (known >= 0) return flipped ? store.neg(known) : known;
    if ((++this.expanded & 255) === 0 && this.shouldStop !== null && this.shouldStop()) throw ABORTED;

    const base = store.stackTop;
    let nl = 0;
    let nr = 0;
    for (let colour = WHITE; colour <= BLACK; colour++) {
      const delta = colour === WHITE ? 1 : -1;
      for (let i = start; i < end; i++) {
        const cell = list[i];
        if (this.balance[cell] !== 0) continue;
        placePiece(this.g, this.cells, this.balance, cell, colour, delta);
        const option = this.restValue(list, start, end, cell, depth);
        liftPiece(this.g, this.cells, this.balance, cell, delta);
        store.push(option);
        if (colour === WHITE) nl++;
        else nr++;
      }
    }
    const id = store.make(base, nl, nr);
    this.cache.set(keyLo, keyHi, flipped ? store.neg(id) : id);
    return id;
  }

  /** Value of what is left of a region after a placement at `placed`: the sum of its new regions. */
  private restValue(list: Int32Array, start: number, end: number, placed: number, depth: number): number {
    const rest = this.lists[depth];
    let n = 0;
    for (let i = start; i < end; i++) if (list[i] !== placed) rest[n++] = list[i];
    const analysis = this.analyses[depth];
    analysis.analyse(this.g, this.cells, this.balance, rest, n);
    let sum = ZERO;
    for (let k = 0; k < analysis.regionCount; k++) {
      const v = this.regionValue(analysis.regionCells, analysis.regionStart[k], analysis.regionStart[k + 1], depth + 1);
      sum = this.store.add(sum, v);
    }
    return sum;
  }
}
