/**
 * Default evaluation: combinatorial game values, read as tempo (ups) and parity (stars).
 *
 * The position is split into independent regions of live cells (dead cells, including chains of
 * blocked cells, are discarded by the liveness fixpoint). Regions of up to CHUNK_SIZE cells get
 * their exact game value; bigger regions are cut into connected chunks of CHUNK_SIZE cells whose
 * exact values (the game restricted to the chunk) stand in for the region's value, ignoring
 * interactions across chunk borders. This keeps the local structures that decide Hadron endgames:
 * moves that create or destroy moves, tempo moves such as the seed's "special moves" (ups), and
 * parity per region (stars).
 *
 * Values are not summed as games (sums of canonical forms grow without bound and once took
 * seconds per call): each is summarised as a * up + s * star (tempo.ts) and the summaries are
 * added, which is O(1) per region once a region has been valued (summaries are cached by the
 * region's cells where they are: one cheap key). Chunks are small, so a cold valuation explores at
 * most 3^CHUNK_SIZE sub-positions; the caches are dropped when they grow too big. Measured: a
 * median of ~10 us per call on 9x9, a few ms for the rare cold call (CHUNK_SIZE 8 and exact sums
 * took up to 26 s). When no region needed chunking and every summary is exact, the reading is the
 * exact result.
 */
import { EMPTY, MAX_CELLS, NEIGHBOUR_SLOTS } from './geometry.js';
import { LiveAnalysis } from './liveness.js';
import type { HadronPosition, PositionEvaluator } from './position.js';
import type { HadronSolver } from './solver.js';
import { KeyMap, RegionKeys } from './regions.js';
import { TempoReading, moverClass, summaryExact, summaryStar, summaryUps } from './tempo.js';

/** Largest region valued exactly, and the chunk size bigger regions are cut into. */
export const CHUNK_SIZE = 4;
/** Internal units of one outcome class step. */
const CLASS_UNIT = 1000;
/** Internal units per net up of the side to move (a margin of safety within a class). */
const UP_UNIT = 60;
const MAX_COUNTED_UPS = 4;
/** Score of an exactly known result (heuristic scale: the search still treats it as an estimate). */
const EXACT_RESULT = 300_000;
/** Store size (games + memo entries) beyond which the shared caches are dropped. */
const STORE_LIMIT = 2_000_000;

export class DefaultEvaluator implements PositionEvaluator {
  private readonly solver: HadronSolver;
  private readonly tempo: TempoReading;
  private readonly analysis = new LiveAnalysis();
  private readonly all = new Int32Array(MAX_CELLS);
  private readonly chunk = new Int32Array(MAX_CELLS);
  private readonly assigned = new Uint8Array(MAX_CELLS);
  private readonly summaries: SummaryCache;
  private readonly keys = new RegionKeys();
  /** Mixed into the summary keys: the same cell index means another place on another shape. */
  private shapeKeyLo = 0;
  private shapeKeyHi = 0;
  /** Running summary of the regions read so far (White's point of view). */
  private ups = 0;
  private starBit = 0;
  private exact = true;

  constructor(solver: HadronSolver) {
    this.solver = solver;
    this.tempo = new TempoReading(solver.store);
    this.summaries = summaryCacheFor(solver);
  }

  evaluate(pos: HadronPosition): number {
    const store = this.solver.store;
    const summaries = this.summaries;
    if (store.footprint + this.solver.values.cache.size + this.solver.values.placedCache.size + summaries.map.size > STORE_LIMIT) this.solver.clearCaches();
    if (store.generation !== summaries.generation) {
      summaries.generation = store.generation;
      summaries.map.clear();
    }
    const g = pos.geometry;
    this.shapeKeyLo = Math.imul(g.rows * 16 + g.cols, 0x9e3779b1);
    this.shapeKeyHi = Math.imul(g.rows * 16 + g.cols, 0x85ebca6b);
    const cells = pos.cells;
    let n = 0;
    for (let cell = 0; cell < g.cellCount; cell++) if (cells[cell] === EMPTY) this.all[n++] = cell;
    const a = this.analysis;
    a.analyse(g, cells, pos.balance, this.all, n);
    this.solver.values.shouldStop = null;
    this.ups = 0;
    this.starBit = 0;
    this.exact = true;
    for (let k = 0; k < a.regionCount; k++) {
      if (a.regionPlayable[k] === 0) continue;
      const start = a.regionStart[k];
      const end = a.regionStart[k + 1];
      if (end - start <= CHUNK_SIZE) {
        this.addValue(pos, a.regionCells, start, end);
      } else {
        this.exact = false;
        this.addChunks(pos, a.regionCells, start, end);
      }
    }
    const moverUps = pos.side === 0 ? this.ups : -this.ups;
    const cls = moverClass(moverUps, this.starBit);
    if (this.exact) return cls > 0 ? EXACT_RESULT - pos.pieces : -(EXACT_RESULT - pos.pieces);
    const counted = moverUps > MAX_COUNTED_UPS ? MAX_COUNTED_UPS : moverUps < -MAX_COUNTED_UPS ? -MAX_COUNTED_UPS : moverUps;
    return cls * CLASS_UNIT + counted * UP_UNIT;
  }

  /** Adds the summary of the exact value of the cells list[start .. end). */
  private addValue(pos: HadronPosition, list: Int32Array, start: number, end: number): void {
    const keys = this.keys;
    keys.computePlaced(pos.balance, list, start, end, 1);
    const lo = keys.keyLo ^ this.shapeKeyLo;
    const hi = keys.keyHi ^ this.shapeKeyHi;
    const map = this.summaries.map;
    let code = map.get(lo, hi);
    if (code < 0) {
      code = this.tempo.code(this.solver.values.value(pos.geometry, pos.cells, pos.balance, list, start, end));
      map.set(lo, hi, code);
    }
    this.ups += summaryUps(code);
    this.starBit ^= summaryStar(code);
    if (!summaryExact(code)) this.exact = false;
  }

  /** Adds the summaries of connected chunks of the region list[start .. end). */
  private addChunks(pos: HadronPosition, list: Int32Array, start: number, end: number): void {
    const g = pos.geometry;
    const assigned = this.assigned;
    const chunk = this.chunk;
    for (let i = start; i < end; i++) assigned[list[i]] = 0;
    // Cells outside the region count as assigned.
    for (let i = start; i < end; i++) {
      const seed = list[i];
      if (assigned[seed] === 2) continue;
      let size = 0;
      chunk[size++] = seed;
      assigned[seed] = 2;
      for (let r = 0; r < size && size < CHUNK_SIZE; r++) {
        const cell = chunk[r];
        for (let j = cell * NEIGHBOUR_SLOTS, e = j + g.neighbourCount[cell]; j < e && size < CHUNK_SIZE; j++) {
          const q = g.neighbours[j];
          if (assigned[q] === 0 && this.analysis.live[q] === 1) {
            assigned[q] = 2;
            chunk[size++] = q;
          }
        }
      }
      this.addValue(pos, chunk, 0, size);
    }
    for (let i = start; i < end; i++) assigned[list[i]] = 1;
  }
}

/**
 * Region summaries by the region's cells and balances where they are (and the board shape): one
 * cheap key instead of the 16 symmetric variants the value cache folds, which dominated the
 * evaluation's cost. Shared by every evaluator on the same solver (one per worker thread), valid
 * for one generation of its game store.
 */
interface SummaryCache {
  readonly map: KeyMap;
  generation: number;
}

const summaryCaches = new WeakMap<HadronSolver, SummaryCache>();

function summaryCacheFor(solver: HadronSolver): SummaryCache {
  let cache = summaryCaches.get(solver);
  if (cache === undefined) {
    cache = { map: new KeyMap(14), generation: -1 };
    summaryCaches.set(solver, cache);
  }
  return cache;
}
