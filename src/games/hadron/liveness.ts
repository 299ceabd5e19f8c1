/**
 * Live cells and independent regions.
 *
 * An empty cell is dead when it can never become playable: its |balance| exceeds the number of
 * neighbours that could still be filled (each filled neighbour moves the balance by one). Dead
 * neighbours never fill, so deadness propagates; the fixpoint below marks every cell that this
 * rule proves dead, and the rest are live. Dead cells stay dead for the rest of the game (a later
 * position's live set is a subset of the earlier one's plus nothing new), so they can be ignored.
 *
 * Live cells interact only through orthogonal adjacency (a placement changes its neighbours'
 * balances and nothing else), so the connected components of live cells are independent
 * sub-games: a position is the sum of its regions. The game of a region depends only on its cells'
 * adjacency and balances, not on where it sits on the board.
 */
import { EMPTY, type Geometry, MAX_CELLS, NEIGHBOUR_SLOTS } from './geometry.js';

export class LiveAnalysis {
  /** 1 for the live cells of the last analysis (cleared lazily by the next one). */
  readonly live = new Uint8Array(MAX_CELLS);
  liveCount = 0;
  /** Regions: cells of region k are regionCells[regionStart[k] .. regionStart[k + 1]). */
  regionCount = 0;
  readonly regionStart = new Int32Array(MAX_CELLS + 1);
  readonly regionCells = new Int32Array(MAX_CELLS);
  /** Playable cells (balance 0) of region k: the first regionPlayable[k] cells of the region. */
  readonly regionPlayable = new Int32Array(MAX_CELLS);

  private readonly liveNeighbours = new Uint8Array(MAX_CELLS);
  private readonly stack = new Int32Array(MAX_CELLS);
  private readonly candidates = new Int32Array(MAX_CELLS);
  private candidateCount = 0;

  /**
   * Live cells among `list[0 .. count)` (empty cells the caller still considers: the whole board,
   * or one region after a placement), then their regions.
   */
  analyse(g: Geometry, cells: Uint8Array, balance: Int8Array, list: Int32Array, count: number): void {
    const live = this.live;
    for (let i = 0; i < this.candidateCount; i++) live[this.candidates[i]] = 0;
    let n = 0;
    for (let i = 0; i < count; i++) {
      const cell = list[i];
      if (cells[cell] === EMPTY) {
        live[cell] = 1;
        this.candidates[n++] = cell;
      }
    }
    this.candidateCount = n;
    const nbrs = g.neighbours;
    const liveNeighbours = this.liveNeighbours;
    const stack = this.stack;
    let top = 0;
    for (let i = 0; i < n; i++) {
      const cell = this.candidates[i];
      let k = 0;
      const base = cell * NEIGHBOUR_SLOTS;
      for (let j = base, end = base + g.neighbourCount[cell]; j < end; j++) k += live[nbrs[j]];
      liveNeighbours[cell] = k;
    }
    for (let i = 0; i < n; i++) {
      const cell = this.candidates[i];
      const b = balance[cell];
      if ((b < 0 ? -b : b) > liveNeighbours[cell]) {
        live[cell] = 0;
        stack[top++] = cell;
      }
    }
    // Each dead cell is pushed once, when it dies; its neighbours lose a live neighbour.
    while (top > 0) {
      const cell = stack[--top];
      const base = cell * NEIGHBOUR_SLOTS;
      for (let j = base, end = base + g.neighbourCount[cell]; j < end; j++) {
        const q = nbrs[j];
        if (live[q] === 0) continue;
        const left = --liveNeighbours[q];
        const b = balance[q];
        if ((b < 0 ? -b : b) > left) {
          live[q] = 0;
          stack[top++] = q;
        }
      }
    }
    this.findRegions(g, balance);
  }

  private findRegions(g: Geometry, balance: Int8Array): void {
    const live = this.live;
    const nbrs = g.neighbours;
    const out = this.regionCells;
    let written = 0;
    let regions = 0;
    let liveCount = 0;
    // live = 2 marks "already placed in a region" during the fill; reset to 1 afterwards.
    for (let i = 0; i < this.candidateCount; i++) {
      const seed = this.candidates[i];
      if (live[seed] !== 1) continue;
      const start = written;
      this.regionStart[regions] = start;
      out[written++] = seed;
      live[seed] = 2;
      for (let r = start; r < written; r++) {
        const cell = out[r];
        const base = cell * NEIGHBOUR_SLOTS;
        for (let j = base, end = base + g.neighbourCount[cell]; j < end; j++) {
          const q = nbrs[j];
          if (live[q] === 1) {
            live[q] = 2;
            out[written++] = q;
          }
        }
      }
      // Playable cells first inside the region.
      let playable = start;
      for (let r = start; r < written; r++) {
        const cell = out[r];
        if (balance[cell] === 0) {
          out[r] = out[playable];
          out[playable++] = cell;
        }
      }
      this.regionPlayable[regions] = playable - start;
      liveCount += written - start;
      regions++;
    }
    this.regionStart[regions] = written;
    for (let i = 0; i < written; i++) live[out[i]] = 1;
    this.regionCount = regions;
    this.liveCount = liveCount;
  }

  regionSize(k: number): number {
    return this.regionStart[k + 1] - this.regionStart[k];
  }
}

/** Puts a piece (delta +1 White, -1 Black) on `cell` of raw board arrays. */
export function placePiece(g: Geometry, cells: Uint8Array, balance: Int8Array, cell: number, piece: number, delta: number): void {
  cells[cell] = piece;
  const base = cell * NEIGHBOUR_SLOTS;
  for (let j = base, end = base + g.neighbourCount[cell]; j < end; j++) balance[g.neighbours[j]] += delta;
}

export function liftPiece(g: Geometry, cells: Uint8Array, balance: Int8Array, cell: number, delta: number): void {
  cells[cell] = EMPTY;
  const base = cell * NEIGHBOUR_SLOTS;
  for (let j = base, end = base + g.neighbourCount[cell]; j < end; j++) balance[g.neighbours[j]] -= delta;
}
