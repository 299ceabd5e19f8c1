/**
 * Default evaluation: combinatorial game values instead of the seed's move counts.
 *
 * The position is split into independent regions of live cells (dead cells, including chains of
 * blocked cells, are discarded by the liveness fixpoint). Regions of up to CHUNK_SIZE cells get
 * their exact game value. Bigger regions are cut into connected chunks of CHUNK_SIZE cells whose
 * exact values (the game restricted to the chunk) stand in for the region's value: this keeps
 * the local structures that decide Hadron endgames (moves that create or destroy moves, tempo
 * moves such as the seed's "special moves", i.e. ups, and parity per region, i.e. stars) while
 * ignoring interactions across chunk borders.
 *
 * The sum of the values is then read from the side to move's point of view: winning whoever
 * starts is best, winning only when moving first next, then losing only when moving first, then
 * losing whoever starts. When no region needed chunking the reading is exact.
 */
import { EMPTY, MAX_CELLS, NEIGHBOUR_SLOTS } from './geometry.js';
import { ZERO } from './cgt.js';
import { LiveAnalysis } from './liveness.js';
import type { HadronPosition, PositionEvaluator } from './position.js';
import type { HadronSolver } from './solver.js';

/** Largest region valued exactly, and the chunk size bigger regions are cut into. */
export const CHUNK_SIZE = 8;
/** Internal units of one outcome class step. */
const CLASS_UNIT = 1000;
/** Score of an exactly known result (heuristic scale: the search still treats it as an estimate). */
const EXACT_RESULT = 300_000;

export class DefaultEvaluator implements PositionEvaluator {
  private readonly solver: HadronSolver;
  private readonly analysis = new LiveAnalysis();
  private readonly all = new Int32Array(MAX_CELLS);
  private readonly chunk = new Int32Array(MAX_CELLS);
  private readonly assigned = new Uint8Array(MAX_CELLS);

  constructor(solver: HadronSolver) {
    this.solver = solver;
  }

  evaluate(pos: HadronPosition): number {
    const g = pos.geometry;
    const cells = pos.cells;
    const balance = pos.balance;
    let n = 0;
    for (let cell = 0; cell < g.cellCount; cell++) if (cells[cell] === EMPTY) this.all[n++] = cell;
    const a = this.analysis;
    a.analyse(g, cells, balance, this.all, n);
    const values = this.solver.values;
    const store = this.solver.store;
    values.shouldStop = null;
    let total = ZERO;
    let exact = true;
    for (let k = 0; k < a.regionCount; k++) {
      if (a.regionPlayable[k] === 0) continue;
      const start = a.regionStart[k];
      const end = a.regionStart[k + 1];
      if (end - start <= CHUNK_SIZE) {
        total = store.add(total, values.value(g, cells, balance, a.regionCells, start, end));
      } else {
        exact = false;
        total = store.add(total, this.chunkedValue(pos, a.regionCells, start, end));
      }
    }
    const white = pos.side === 0;
    const winsFirst = white ? store.leftWinsFirst(total) : store.rightWinsFirst(total);
    const winsSecond = white ? !store.rightWinsFirst(total) : !store.leftWinsFirst(total);
    if (exact) return winsFirst ? EXACT_RESULT - pos.pieces : -(EXACT_RESULT - pos.pieces);
    const cls = winsFirst ? (winsSecond ? 2 : 1) : winsSecond ? -1 : -2;
    return cls * CLASS_UNIT;
  }

  /** Sum of the exact values of connected chunks of the region list[start .. end). */
  private chunkedValue(pos: HadronPosition, list: Int32Array, start: number, end: number): number {
    const g = pos.geometry;
    const assigned = this.assigned;
    const chunk = this.chunk;
    const values = this.solver.values;
    const store = this.solver.store;
    for (let i = start; i < end; i++) assigned[list[i]] = 0;
    // Cells outside the region count as assigned.
    let sum = ZERO;
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
      sum = store.add(sum, values.value(g, pos.cells, pos.balance, chunk, 0, size));
    }
    for (let i = start; i < end; i++) assigned[list[i]] = 1;
    return sum;
  }
}
